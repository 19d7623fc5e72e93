package interview

import (
	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/sabotage"
)

// The clean main agent is the harness's interview counterpart: the interview self-checks (§8–§9 bind the
// verifier, not the agent) run against it whatever the target is.
func init() {
	harness.RegisterCounterpart("interview", func() (*harness.Counterpart, error) {
		a, err := StartAgent("interview", sabotage.Set{})
		if err != nil {
			return nil, err
		}
		return &harness.Counterpart{CardURL: a.srv.CardURL(), RootCAs: testpki.CAPool(), TrustedKeys: testpki.CardJWKS()}, nil
	})
}
