// Package sabotage is the registry of sabotage toggles: each breaks one requirement of a reference mock agent (or
// of the harness's reference client) on purpose, so a run against it proves the targeted rows' tests can fail.
//
// It is a leaf: it imports nothing of this module, so the engine, the documents' packages and the falsification
// matrix (falsify, which also checks the registry against the catalog) can all depend on it.
package sabotage
