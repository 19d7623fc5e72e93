//go:build !unix

package main

import (
	"errors"
	"os/exec"
)

// splitSupported: without a shared memory mapping a run is not split (--jobs is taken as 1).
const splitSupported = false

type seqCounter struct{}

func openSeqCounter(string) (*seqCounter, error) {
	return nil, errors.New("a split run needs a shared memory mapping, which this platform lacks")
}

func (c *seqCounter) Next() int    { return 0 }
func (c *seqCounter) Close() error { return nil }

func ownProcessGroup(*exec.Cmd) {}
