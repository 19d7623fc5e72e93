package main

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/extconf/extconf/mockagents"
	"github.com/extconf/extconf/sabotage"
)

// An agent that refuses unauthenticated callers, configured with no credential at all (the first thing a new user
// tries): config init and check name the missing principal and predict exactly the rows the run blocks on the
// 401 (issue #35: against the independent schema-interface agent, check predicted 89 rows blocked on other
// members while the run blocked 133, most of them naming principals.A).
func TestConfigCheckPredictsTheRunWithoutCredentials(t *testing.T) {
	tgt, err := mockagents.Start(sabotage.Set{}, "schema-interface")
	if err != nil {
		t.Fatal(err)
	}
	defer tgt.Close()
	dir := t.TempDir()
	cfg := announcedFile(t, tgt)
	cfg.Credentials, cfg.Principals, cfg.Agents = nil, nil, nil
	for id := range cfg.Documents {
		cfg.Documents[id] = json.RawMessage(`{}`)
	}
	predictsTheRun(t, dir, tgt.Agents["schema-interface"], writeJSON(t, filepath.Join(dir, "base.json"), cfg), -1)
}
