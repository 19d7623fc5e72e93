//go:build unix

package main

import (
	"os"
	"os/exec"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// splitSupported: the parts of a split run share their exchange counter through a shared memory mapping.
const splitSupported = true

// seqCounter is an exchange counter shared by the processes of one run: an int64 in a file mapped shared, bumped
// atomically, so numbering an exchange costs no system call.
type seqCounter struct{ mem []byte }

func openSeqCounter(path string) (*seqCounter, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	mem, err := syscall.Mmap(int(f.Fd()), 0, 8, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		return nil, err
	}
	return &seqCounter{mem: mem}, nil
}

// Next is the next exchange number of the run, from 1.
func (c *seqCounter) Next() int {
	return int(atomic.AddInt64((*int64)(unsafe.Pointer(&c.mem[0])), 1)) // page-aligned: 8-byte aligned
}

func (c *seqCounter) Close() error { return syscall.Munmap(c.mem) }

// ownProcessGroup starts cmd in a process group of its own: an interrupt typed at the terminal reaches only the
// parent, which passes it on in its own way.
func ownProcessGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }
