// Package schemaifaceclient is the reference-client half of the schema-interface suite: every row whose witness
// is the harness's own reference client (refclients/skiface). Each spec runs the client against the target's
// schema-interface agent where the target can serve the case, and against small local agents (stand-ins, on
// 127.0.0.1) that behave in exactly the way the rule is about. The client-side sabotage toggles reach the client
// through the run's Env.Sabotage; with one on, the spec of the rule it breaks fails.
package schemaifaceclient
