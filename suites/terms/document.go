package terms

import "github.com/extconf/extconf/harness"

// Document registers this suite with the engine (cmd wires every document in suites.All).
func Document() harness.Document { return document{} }

type document struct{ harness.NoOperatorInput }

func (document) ID() string              { return "terms" }
func (document) Suites() []harness.Suite { return []harness.Suite{Suite()} }

// Input: the terms section (principals, change hook, claim map inline).
func (document) Input() any { return &Input{} }
