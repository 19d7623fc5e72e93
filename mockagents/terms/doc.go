// Package terms is the reference agent of the terms extension (Agent SoW: A2A Terms Extension): a Stonework
// reconciliation agent whose signed card (A2A §8.4) declares the extension as a data-only entry and commits by
// digest to two signed standing proposals it serves over TLS, pretty-printed with members reordered (so only a
// JCS digest verifies). Principal A (the party "harbour-books") gets an extended card that also lists a directed
// standing proposal, served only to A; principal B gets the public list. A test-only change hook re-signs a
// proposal and updates (and re-signs) the card. Every sabotage toggle of the terms document is consulted at the
// one place its requirement is honoured.
package terms
