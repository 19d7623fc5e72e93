// Package suites is the one list of documents the harness certifies against: each document package registers
// itself through harness.Document, and this list is the only place that names all five.
package suites
