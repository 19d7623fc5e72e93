// Package batch certifies many agents at once and merges bundles into one registry view.
//
// A targets file lists the agents (a card URL or a local image, its configuration file, an optional name). Run
// starts one `runsuite run` child process per target, at most Options.Parallel at a time: a process per run
// keeps Ginkgo's process-global spec tree, each run's limits and deadline, and its memory apart, and a dead or
// hostile agent stalls only its own child (each has a wall-clock bound past its own run deadline). Every run
// writes its bundle into its own directory OUT/<name>/.
//
// BuildIndex reads a directory of such bundle directories, wherever they were produced (one batch, many
// machines, Kubernetes pods), verifies each bundle offline and summarises it: the index (index.json,
// index.html, junit.xml) is a function of the bundles alone, so `runsuite batch` and `runsuite index` over the
// same bundles write the same index.
package batch
