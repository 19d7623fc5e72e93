package schemaiface

import (
	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/refclients/skiface"
	"github.com/extconf/extconf/suites/schemaifaceclient"
)

// Document registers the schema-interface document with the engine: the agent-side suite and the reference
// client's suite run as one (cmd wires every document in suites.All).
func Document() harness.Document { return document{} }

type document struct{}

func (document) ID() string { return "schema-interface" }
func (document) Suites() []harness.Suite {
	return []harness.Suite{Suite(), schemaifaceclient.Suite()}
}
func (document) Origins(target.Config) []string { return nil }

// Input: the schema-interface section (principals, requests, the profile inline).
func (document) Input() any { return &Input{} }

// LimitsMember: the Skill Interface toolkit's bounds live in limits.schemaInterface.
func (document) LimitsMember() string { return skiface.LimitsMember }

func (document) CheckConfig(cfg target.Config) error {
	l, err := harness.ParseLimits(cfg.Limits)
	if err != nil {
		return err
	}
	_, err = skiface.ParseLimits(l.Documents[skiface.LimitsMember])
	return err
}

// limits are the run's Skill Interface limits (a malformed member keeps the defaults: CheckConfig refused it first).
func limits(e *harness.Env) skiface.Limits {
	l, err := skiface.ParseLimits(e.DocumentLimits(skiface.LimitsMember))
	if err != nil {
		return skiface.DefaultLimits()
	}
	return l
}
