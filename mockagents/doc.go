// Package mockagents starts the reference agents: one per document, spec-correct, on loopback, each breakable by
// the sabotage toggles switched on for it. Each document's agent lives in its own package and registers its
// starter from a fleet_<doc>.go file here.
package mockagents
