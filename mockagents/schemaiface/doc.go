// Package schemaiface is the reference agent of the schema-interface document (interface version 1.0): an A2A
// 1.0 agent on the shared server core that advertises describe_skill and its domain skills through the
// schema-interface extension, serves Skill Interface Documents assembled and validated at start-up (the worked
// example's evaluate_resource_condition document reproduces the draft's digests), and maps domain invocations,
// supporting records and machine-readable errors as the draft's A2A mapping says. Every sabotage toggle of the
// document's agent side is consulted where the requirement is honoured.
//
// Operator input the harness would otherwise lack (two principals, valid and fault arguments, control hooks for
// approvals and revocations, the skills deliberately unavailable, corrupt or failed at start-up) is handed to the
// harness as the target configuration's schema-interface profile (requests["schema-interface.profile"]).
package schemaiface
