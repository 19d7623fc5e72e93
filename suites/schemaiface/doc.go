// Package schemaiface is the agent-side conformance suite of "Schema Interfaces for Network Management Agent
// Skills" (interface version 1.0): the Agent Card advertisement, describe_skill and the Skill Interface Documents
// it returns, domain-skill invocation, supporting records and machine-readable errors, authorization, constraints
// and limits. It sees only the target (role "schema-interface") and the recording client; the reference-client
// rows are in package schemaifaceclient. See README.md for the row → spec → toggle table.
package schemaiface
