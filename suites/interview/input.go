package interview

import (
	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/target"
)

// Input is the interview section of the target configuration (documents["interview"]).
type Input struct {
	// Principal names the credential (target configuration "credentials") the harness sends when the card
	// requires authentication.
	Principal string `json:"principal,omitempty"`
	// Agents are the extra agents some rows need: noterms (declares the interview but not the terms extension),
	// churn (its card changes between a verifier's fetch and its calls).
	Agents *Agents `json:"agents,omitempty"`
	// Requests: skill id → request texts that reach the skill (default: the card's examples).
	Requests map[string][]string `json:"requests,omitempty"`
	harness.Absences
}

// Agents are the interview's extra agents (card URLs).
type Agents struct {
	// NoTerms is the card URL of an agent that declares the interview but not the terms extension.
	NoTerms string `json:"noterms,omitempty"`
	// Churn is the card URL of an agent whose card changes between a verifier's fetch and its calls.
	Churn string `json:"churn,omitempty"`
}

const docID = "interview"

// Apply writes the section into the members the suite reads.
func (in *Input) Apply(cfg *target.Config) error {
	const path = "$.documents.interview"
	if in.Principal != "" {
		if err := cfg.SetPrincipal(docID+".A", in.Principal, path+".principal"); err != nil {
			return err
		}
	}
	if in.Agents != nil {
		cfg.SetAgent(roleNoTerms, in.Agents.NoTerms)
		cfg.SetAgent(roleChurn, in.Agents.Churn)
	}
	return cfg.AddRequests(path+".requests", in.Requests)
}
