// Package jsonptr is the one implementation of RFC 6901 JSON Pointers in the tree: escaping and unescaping
// reference tokens, formatting and splitting pointers, and resolving a pointer in a decoded JSON document
// (map[string]any, []any, scalars). The reference clients, the suites and the reference agents all use it, so a
// pointer means the same thing to the harness and to the agents it tests.
package jsonptr
