// Package hostile holds only tests: the harness against misbehaving and hostile targets (bounded time and memory,
// reach, redaction). See hostile_test.go.
package hostile
