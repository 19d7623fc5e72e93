package schemaiface

import (
	"encoding/json"
	"fmt"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/target"
)

// Input is the schema-interface section of the target configuration (documents["schema-interface"]): the
// principals by credential name, request texts, and the profile's members inline.
type Input struct {
	// Principals names the credentials (target configuration "credentials") of principal "A" (the primary
	// caller) and "B" (authenticates, holds fewer grants than A).
	Principals map[string]string `json:"principals,omitempty"`
	// Requests: skill id → request texts that reach the skill (default: the card's examples).
	Requests map[string][]string `json:"requests,omitempty"`
	Profile
	harness.Absences
}

const docID = "schema-interface"

// Apply writes the section into the members the suite reads (principals "schema-interface.<name>", the profile).
func (in *Input) Apply(cfg *target.Config) error {
	const path = "$.documents.schema-interface"
	for _, k := range []string{"A", "B"} {
		if c, ok := in.Principals[k]; ok {
			if err := cfg.SetPrincipal(docID+"."+k, c, path+".principals."+k); err != nil {
				return err
			}
		}
	}
	for k := range in.Principals {
		if k != "A" && k != "B" {
			return fmt.Errorf("principals: unknown principal %q (want A, B)", k)
		}
	}
	b, err := json.Marshal(in.Profile)
	if err != nil {
		return err
	}
	if string(b) != "{}" {
		if cfg.Requests == nil {
			cfg.Requests = map[string][]string{}
		}
		cfg.Requests[ProfileKey] = []string{string(b)}
	}
	return cfg.AddRequests(path+".requests", in.Requests)
}
