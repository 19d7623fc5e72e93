// Package harness is the run engine: how a Ginkgo spec names the catalog rows it witnesses, how each executed
// assertion is counted against a row, how specs become row verdicts, and how a run is driven programmatically.
package harness
