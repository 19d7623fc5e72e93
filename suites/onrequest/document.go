package onrequest

import "github.com/extconf/extconf/harness"

// Document registers this suite with the engine (cmd wires every document in suites.All).
func Document() harness.Document { return document{} }

type document struct{ harness.NoOperatorInput }

func (document) ID() string              { return "on-request" }
func (document) Suites() []harness.Suite { return []harness.Suite{Suite()} }

// Input: the on-request section (assistants' credentials, the operator statement inline, actingFor, agents).
func (document) Input() any { return &Input{} }
