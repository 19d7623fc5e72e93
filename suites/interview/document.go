package interview

import "github.com/extconf/extconf/harness"

// Document registers this suite with the engine (cmd wires every document in suites.All).
func Document() harness.Document { return document{} }

type document struct{ harness.NoOperatorInput }

func (document) ID() string              { return "interview" }
func (document) Suites() []harness.Suite { return []harness.Suite{Suite()} }

// Input: the interview section (principal, extra agents, requests).
func (document) Input() any { return &Input{} }
