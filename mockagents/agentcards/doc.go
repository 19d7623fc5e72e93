// Package agentcards is the reference host of OpenWOP RFC 0202 (per-agent A2A cards): a multi-tenant OpenWOP host
// on the shared A2A server core, with an OpenWOP discovery document advertising a2a.agentCards, an authenticated
// inventory (GET /agents, GET /agents/{agentId}) whose entries carry opaque routing values (a2aTenant, "R"), and
// GetExtendedAgentCard with tenant R on both A2A bindings returning the agent's card. Every other A2A operation
// is routed by R within the caller's tenant of record.
//
// Order of checks for a request carrying R: authenticate (401, one fixed body) → authorize as GET /agents/{agentId}
// does (runs:read; 403, one fixed body, R not looked at) → resolve R within the caller's inventory → the operation.
// Every R that does not resolve (never minted, another tenant's, unapproved, uninstalled) gets one fixed refusal
// per operation and binding. Each sabotage toggle of the document is consulted where its rule is honoured.
package agentcards
