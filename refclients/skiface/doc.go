// Package skiface is extconf's Skill Interface toolkit for the schema-interface document (interface version 1.0):
// the trusted Skill Interface Schema (derived from the draft's prose, see README.md), JCS digests, the
// Schema Reference compiler (inline schemas only, no retrieval, bounded), and the reference client procedure of
// "Client-agent behavior" with its local error conditions, cache binding, composition rule and delegation hops.
//
// The agent side (the reference mock) uses the pure functions: TrustedSchema, ValidateDocument, InterfaceDigest,
// SchemaDigest, CompileSchema. The procedure (Client) is the harness acting as a client agent; it consults the
// client-side sabotage toggles it is given, so a falsification run can prove each client rule's test can fail.
package skiface
