package agentcards_test

import (
	"strings"
	"testing"

	"github.com/extconf/extconf/harness"
	mock "github.com/extconf/extconf/mockagents/agentcards"
)

// Issue #38: a host whose card lists a gRPC interface gets the every-operation-every-binding rows blocked, naming
// the binding (its legs were not probed), never passed.
func TestGRPCLegsAreReportedNotTested(t *testing.T) {
	rows := run(t, nil, mock.TestGRPCInterface)
	for _, id := range []string{"AC-D.6a", "AC-D.6b", "AC-D.6c", "AC-D.7a", "AC-D.7b", "AC-D.7c", "AC-V2.5a", "AC-V2.5b", "AC-V2.5c", "AC-V2.6", "AC-INV.1b"} {
		if r := rows[id]; r.Verdict != harness.Blocked || !strings.Contains(r.Detail, "gRPC") {
			t.Errorf("%s: %s (%s), want blocked naming the gRPC binding", id, r.Verdict, r.Detail)
		}
	}
	for id, r := range rows {
		if r.Verdict == harness.ExecutedFail {
			t.Errorf("%s failed: %s", id, r.Detail)
		}
	}
}

// Issue #38: the two latitudes (a noisy 401, a binding that routes no push-config operation) pass every row; each
// failed D.6a/V2.5a or D.6c/V2.5c/INV.1b before.
func TestRefusalLatitudesPass(t *testing.T) {
	for _, opt := range []string{mock.LatNoisyAuth, mock.LatNoRESTPushConfig} {
		for id, r := range run(t, nil, opt) {
			if r.Verdict == harness.ExecutedFail {
				t.Errorf("%s: %s failed: %s", opt, id, r.Detail)
			}
		}
	}
}
