//go:build !unix

package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// lockOut is lockOut of outlock_unix.go with an exclusively created file (left behind if the process dies).
func lockOut(dir string) (release func(), err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	p := filepath.Join(dir, ".runsuite.lock")
	f, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("--out %s: another runsuite run is writing into it (%s exists); wait for it or choose another directory", dir, p)
	}
	f.Close()
	return func() { os.Remove(p) }, nil
}
