package terms

import (
	"fmt"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/target"
)

// Input is the terms section of the target configuration (documents["terms"]).
type Input struct {
	harness.Absences
	// Principals are the callers of GetExtendedAgentCard, each naming a credential (target configuration
	// "credentials") whose id is the Agent SoW party (parties.offered_to agent key, handle or owner) it stands for.
	Principals []string `json:"principals,omitempty"`
	// ChangeHook is a URL that, on POST, publishes a changed standing proposal (and on POST ?revert=1 restores it).
	ChangeHook string `json:"changeHook,omitempty"`
	// Claims is the claim map, inline: which card prose claims which proposal clause backs.
	Claims []claim `json:"claims,omitempty"`
}

const docID = "terms"

// Apply writes the section into the members the suite reads (principals "terms-<name>", the change hook role).
func (in *Input) Apply(cfg *target.Config) error {
	const path = "$.documents.terms"
	for i, name := range in.Principals {
		if err := cfg.SetPrincipal("terms-"+name, name, fmt.Sprintf("%s.principals[%d]", path, i)); err != nil {
			return err
		}
	}
	cfg.SetAgent(RoleChangeHook, in.ChangeHook)
	return nil
}

// inlineClaims is the claim map written in the section (ok false: none).
func (s *state) inlineClaims() (claimMap, bool) {
	if in, ok := s.e.Input(docID).(*Input); ok && in.Claims != nil {
		return claimMap{Claims: in.Claims}, true
	}
	return claimMap{}, false
}
