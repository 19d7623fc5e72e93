package agentcards

import (
	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/target"
)

// Document registers this suite with the engine (cmd wires every document in suites.All).
func Document() harness.Document { return document{} }

type document struct{}

func (document) ID() string              { return "agent-cards" }
func (document) Suites() []harness.Suite { return []harness.Suite{Suite()} }

// Origins: the operator's OpenWOP discovery document and inventory, which may live off the card's origin.
func (document) Origins(cfg target.Config) []string { return []string{cfg.Discovery, cfg.Inventory} }

func (document) LimitsMember() string                { return "" }
func (document) CheckConfig(cfg target.Config) error { return nil }

// Input: the agent-cards section (principals, discovery, inventory, routing tables, canaries).
func (document) Input() any { return &Input{} }
