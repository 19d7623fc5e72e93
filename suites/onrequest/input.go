package onrequest

import (
	"fmt"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/target"
)

// Input is the on-request section of the target configuration (documents["on-request"]).
type Input struct {
	harness.Absences
	// Principals names the credentials (target configuration "credentials") of the calling assistants "A", "B",
	// … (an A2A agent tells assistants apart by their credentials).
	Principals map[string]string `json:"principals,omitempty"`
	// Operator is the operator statement, inline (README: "Operator statement").
	Operator *statement `json:"operator,omitempty"`
	// ActingFor says how an assistant asserts that it acts for a named person (OR-5.5 leaves it undefined).
	ActingFor *target.ActingFor `json:"actingFor,omitempty"`
	// Agents are the extra agents some rows need (card URLs).
	Agents *Agents `json:"agents,omitempty"`
	// Requests: skill id → request texts that reach the skill (default: the card's examples).
	Requests map[string][]string `json:"requests,omitempty"`
	// StaffRequests are texts asking to reach the operator's staff (OR-… on an unstaffed agent).
	StaffRequests []string `json:"staffRequests,omitempty"`
}

// Agents are on-request's extra agents.
type Agents struct {
	Unattested string `json:"unattested,omitempty"` // its operator holds no current level-2 attestation
	Unstaffed  string `json:"unstaffed,omitempty"`  // nobody can be reached
}

const docID = "on-request"

// Apply writes the section into the members the suite reads (the statement is read from the section itself).
func (in *Input) Apply(cfg *target.Config) error {
	const path = "$.documents.on-request"
	for _, k := range sortedKeys(in.Principals) {
		if len(k) != 1 || k[0] < 'A' || k[0] > 'Z' {
			return fmt.Errorf("principals: %q is no assistant letter (A, B, …)", k)
		}
		if err := cfg.SetPrincipal(docID+"."+k, in.Principals[k], path+".principals."+k); err != nil {
			return err
		}
	}
	if in.ActingFor != nil {
		cfg.ActingFor = in.ActingFor
	}
	if in.Agents != nil {
		cfg.SetAgent(roleUnattested, in.Agents.Unattested)
		cfg.SetAgent(roleUnstaffed, in.Agents.Unstaffed)
	}
	if len(in.StaffRequests) > 0 {
		if err := cfg.AddRequests(path, map[string][]string{"__staff__": in.StaffRequests}); err != nil {
			return err
		}
	}
	return cfg.AddRequests(path+".requests", in.Requests)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// inlineStatement is the statement written in the section, or nil.
func (s *suite) inlineStatement() *statement {
	if in, ok := s.e.Input(docID).(*Input); ok && in.Operator != nil {
		st := *in.Operator
		return &st
	}
	return nil
}
