package suites

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/extconf/extconf/harness/target"
)

// OperatorFacts are the members of each document section that no probe of the target can derive: credentials and
// the principals they stand for, hooks and operator statements, planted canaries, deployment policy. An operator
// writes these; a run (or config init) derives the rest (card examples, discovery, valid arguments, degraded
// skills). The derived falsification mode and the config-check test both cut an announcement down to them.
var OperatorFacts = map[string][]string{
	"agent-cards":      {"principals", "routed", "workflowless", "degraded", "canaries", "foreignR"},
	"interview":        {"principal", "agents"},
	"on-request":       {"principals", "operator", "actingFor", "agents", "staffRequests"},
	"schema-interface": {"principals", "approval", "approvalSkills", "authorization", "constraints", "faultInput", "inputSideEffect", "limits", "revocation", "semantic", "sensitive", "staleBinding"},
	"terms":            {"principals", "changeHook", "claims"},
}

// OperatorCut returns cfg with each document section cut down to its OperatorFacts: what an operator holds before
// anything is derived. The common members (credentials, agents, CA, keys, limits) are kept.
func OperatorCut(cfg target.Config) (target.Config, error) {
	out := cfg
	out.Documents = map[string]json.RawMessage{}
	for id, raw := range cfg.Documents {
		var sec map[string]json.RawMessage
		if err := json.Unmarshal(raw, &sec); err != nil {
			return out, fmt.Errorf("$.documents.%s: %w", id, err)
		}
		for k := range sec {
			if !slices.Contains(OperatorFacts[id], k) {
				delete(sec, k)
			}
		}
		b, err := json.Marshal(sec)
		if err != nil {
			return out, err
		}
		out.Documents[id] = b
	}
	return out, nil
}
