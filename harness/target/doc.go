// Package target says how to reach the agent under test: the in-process reference mocks, any URL, or a container.
// Suites see only a Target, so one spec runs unchanged against all three.
package target
