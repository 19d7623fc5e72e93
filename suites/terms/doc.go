// Package terms is the conformance suite of the terms extension (Agent SoW: A2A Terms Extension 0.1.0-draft,
// rows TE-…). Agent rows read the target's card, extended cards and the proposals they list; consumer and surface
// rows run the harness's own reference consumer and renderer (harness/verify) against a loopback fixture server
// (fixtures/terms), with the run's client-side toggles applied. See README.md for the row → spec → toggle table.
package terms
