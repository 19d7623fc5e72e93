// Package a2a is the harness's A2A 1.0 client: JSON-RPC and HTTP+JSON bindings, SSE streaming, and a transcript
// that records every exchange byte for byte. The wire types below follow the 1.0 ProtoJSON encoding (camelCase
// members, enum proto names, unset members omitted); assertions can always reach the raw bytes instead.
package a2a
