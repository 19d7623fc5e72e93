//go:build unix

package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// lockOut takes an exclusive lock on the --out directory for the whole run (flock on DIR/.runsuite.lock, released
// by the kernel if the process dies): two runs into one new --out would otherwise both pass checkOut and one
// bundle would silently replace the other's, or mix with it.
func lockOut(dir string) (release func(), err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	p := filepath.Join(dir, ".runsuite.lock")
	f, err := os.OpenFile(p, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("--out %s: another runsuite run is writing into it; wait for it or choose another directory", dir)
		}
		return nil, err
	}
	return func() {
		os.Remove(p)
		f.Close() // releases the lock
	}, nil
}
