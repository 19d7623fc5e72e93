// Package harnesstest runs a suite against a reference agent inside a Go test: the shared opening of the suites'
// run tests (start the agent, build the in-process target, run, read one document's rows).
package harnesstest
