// Package agentcards is the conformance suite of OpenWOP RFC 0202 (each inventoried agent published as an A2A
// Agent Card; catalog rows AC-…, aliases 0202.*). It sees the host only through the target: the OpenWOP discovery
// document and inventory named in the target configuration, the public card, and both A2A bindings. One spec per
// row; the surfaces are fetched once per run and shared (session.go). See README.md for the row → spec → toggle
// table and the operator input the gated rows need.
package agentcards
