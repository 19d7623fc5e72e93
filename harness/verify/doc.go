// Package verify holds the primitives the reference clients of every document share, each written once: card JWS
// verification (CardSignature: the agent-cards signature procedure, also used by the terms and interview clients)
// and JCS (RFC 8785) canonical forms and digests. JSON Pointers are in harness/jsonptr, I-JSON checking in
// harness/a2a. The per-document reference clients live in the sub-packages terms, interview, onrequest and skiface;
// this package imports none of them and not sabotage, so it holds no sabotaged behaviour.
package verify
