package agentcards_test

import (
	"context"
	"strings"
	"testing"

	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/harness/target"
	mock "github.com/extconf/extconf/mockagents/agentcards"
	"github.com/extconf/extconf/sabotage"
	"github.com/extconf/extconf/suites/agentcards"
)

// run starts the reference host, lets edit withhold operator input, and runs the suite against it.
func run(t *testing.T, edit func(*target.Config), options ...string) map[string]harness.RowVerdict {
	t.Helper()
	return runAs(t, target.KindMock, edit, options...)
}

// runAs is run with the target's kind: a URL target knows only the card URL and the operator's configuration.
func runAs(t *testing.T, kind string, edit func(*target.Config), options ...string) map[string]harness.RowVerdict {
	t.Helper()
	return runCard(t, kind, func(c *target.Config, _ string) {
		if edit != nil {
			edit(c)
		}
	}, options...)
}

// runCard is runAs whose edit also sees the host's card URL.
func runCard(t *testing.T, kind string, edit func(c *target.Config, cardURL string), options ...string) map[string]harness.RowVerdict {
	t.Helper()
	roles, cfg, closeFn, err := mock.StartWith(sabotage.Set{}, options...)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	edit(&cfg, roles[agentcards.ID])
	if kind == target.KindURL {
		roles = map[string]string{"": roles[agentcards.ID]}
	}
	tgt := &target.Target{Kind: kind, Agents: roles, RootCAs: testpki.CAPool(), Config: cfg}
	res, err := harness.Run(context.Background(), tgt, harness.Options{
		Suites: []harness.Suite{agentcards.Suite()}, Documents: []string{agentcards.ID}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]harness.RowVerdict{}
	for _, r := range res.Rows {
		if r.Document == agentcards.ID {
			out[r.ID] = r
		}
	}
	if got, want := len(out), len(catalog.MustLoad().ByDocument(agentcards.ID)); got != want {
		t.Fatalf("%d agent-cards rows in the result, the catalog has %d", got, want)
	}
	return out
}

func rowsOf(m map[string]harness.RowVerdict) []harness.RowVerdict {
	var out []harness.RowVerdict
	for _, r := range m {
		out = append(out, r)
	}
	return out
}

// Against the reference host with every operator input supplied, every row is executed-pass.
func TestReferenceHostPassesEveryRow(t *testing.T) {
	rows := run(t, nil)
	for id, r := range rows {
		if r.Verdict != harness.ExecutedPass || r.Assertions == 0 {
			t.Errorf("%s: %s (%d assertions): %s", id, r.Verdict, r.Assertions, r.Detail)
		}
	}
	if !harness.Passed(rowsOf(rows)) {
		t.Error("the reference run does not read as passed")
	}
}

// With principal B withheld, the cross-tenant rows are blocked (never passed, never failed) and the run fails.
func TestWithoutPrincipalBCrossTenantRowsAreBlocked(t *testing.T) {
	rows := run(t, func(c *target.Config) {
		delete(c.Principals, "B")
		delete(c.Principals, "agent-cards.B")
	})
	crossTenant := []string{"AC-B.2f", "AC-D.9", "AC-D.7a", "AC-D.7b", "AC-D.7c", "AC-V2.6", "AC-INV.1a", "AC-INV.1b"}
	for _, id := range crossTenant {
		r := rows[id]
		if r.Verdict != harness.Blocked || !strings.Contains(r.Detail, "principal B") {
			t.Errorf("%s: %s (%s), want blocked naming principal B", id, r.Verdict, r.Detail)
		}
	}
	for id, r := range rows {
		if !contains(crossTenant, id) && r.Verdict != harness.ExecutedPass {
			t.Errorf("%s: %s (%s), want executed-pass (it needs no second tenant)", id, r.Verdict, r.Detail)
		}
	}
	if harness.Passed(rowsOf(rows)) {
		t.Error("a run with blocked rows reads as passed: it must exit 1")
	}
}

// Without the operator's agent-cards inputs and identifiers, each gated row is blocked, never passed.
func TestWithoutOperatorInputGatedRowsAreBlocked(t *testing.T) {
	rows := run(t, func(c *target.Config) {
		for k := range c.Requests {
			if strings.HasPrefix(k, "agent-cards:") {
				delete(c.Requests, k)
			}
		}
		for k, p := range c.Principals {
			p.Tenant, p.Workspace, p.ID = "", "", ""
			c.Principals[k] = p
		}
		delete(c.Principals, "A-restricted")
		delete(c.Principals, "agent-cards.A-restricted")
	})
	gated := []string{"AC-B.2e", "AC-V2.4b", "AC-B.2b", "AC-B.2c", "AC-B.2d", "AC-V2.2a", "AC-V2.2b", "AC-V2.2c", "AC-B.3a",
		"AC-C.5a", "AC-C.5b", "AC-C.5c", "AC-V2.4", "AC-V2.3i", "AC-D.6b", "AC-V2.5b"}
	for _, id := range gated {
		if r := rows[id]; r.Verdict != harness.Blocked {
			t.Errorf("%s: %s (%s), want blocked", id, r.Verdict, r.Detail)
		}
	}
	// The foreign legs the operator did not name are dropped; tenant B's leg still witnesses D.7.
	for _, id := range []string{"AC-D.7a", "AC-D.7b", "AC-D.7c", "AC-V2.6", "AC-INV.1b"} {
		if r := rows[id]; r.Verdict != harness.ExecutedPass {
			t.Errorf("%s: %s (%s), want executed-pass on tenant B's leg", id, r.Verdict, r.Detail)
		}
	}
}

// The reference host as a URL target with credentials only (no `discovery`, no `inventory`): the suite finds
// /.well-known/openwop on the card's origin, negotiates v2, finds GET /agents, and grades every row.
func TestURLTargetWithCredentialsOnlyGradesEveryRow(t *testing.T) {
	rows := runAs(t, target.KindURL, func(c *target.Config) {
		if c.Discovery != "" || c.Inventory != "" {
			t.Fatalf("the reference host configures discovery %q / inventory %q", c.Discovery, c.Inventory)
		}
	})
	for id, r := range rows {
		if r.Verdict != harness.ExecutedPass || r.Assertions == 0 {
			t.Errorf("%s: %s (%d assertions): %s", id, r.Verdict, r.Assertions, r.Detail)
		}
	}
}

// Nothing OpenWOP at /.well-known/openwop (404) and no `discovery` configured: the target is no OpenWOP host, every
// row inapplicable, naming the well-known location.
func TestWithoutDiscoveryTheDocumentIsInapplicable(t *testing.T) {
	rows := run(t, nil, mock.TestNoDiscovery)
	for id, r := range rows {
		if r.Verdict != harness.Inapplicable || !strings.Contains(r.Detail, "/.well-known/openwop") {
			t.Errorf("%s: %s (%s), want inapplicable naming /.well-known/openwop", id, r.Verdict, r.Detail)
		}
	}
}

// A v1-only host (the v1 document whatever OpenWOP-Version says) is reported as such: every row inapplicable.
func TestV1OnlyHostIsReportedAsSuch(t *testing.T) {
	rows := run(t, nil, mock.TestDiscoveryV1Only)
	for id, r := range rows {
		if r.Verdict != harness.Inapplicable || !strings.Contains(r.Detail, "only OpenWOP v1") {
			t.Errorf("%s: %s (%s), want inapplicable as a v1-only host", id, r.Verdict, r.Detail)
		}
	}
}

// A configured discovery document that cannot be fetched fails the advertisement rows and blocks the others.
func TestUnreadableConfiguredDiscoveryFailsAdvertisement(t *testing.T) {
	rows := runCard(t, target.KindMock, func(c *target.Config, cardURL string) {
		c.Discovery = strings.TrimSuffix(cardURL, "/.well-known/agent-card.json") + "/.well-known/openwop-missing"
	})
	for id, r := range rows {
		adv := contains([]string{"AC-A.1a", "AC-A.1b", "AC-V2.1a", "AC-V2.1b"}, id)
		if adv && r.Verdict != harness.ExecutedFail || !adv && r.Verdict != harness.Blocked {
			t.Errorf("%s: %s (%s)", id, r.Verdict, r.Detail)
		}
	}
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// Latitudes: choices the document permits. With each on, no row may be executed-fail or not-tested (the
// falsification gate's rule); the ids and the sentences that permit them are in docs/latitudes.md.
func TestLatitudesSurvive(t *testing.T) {
	for _, lat := range []string{mock.LatDiscoveryV2Only, mock.LatDiscoveryV1AndV2, mock.LatUniformRefusal,
		mock.LatMessageReply, mock.LatRVariety, mock.LatNoisyAuth, mock.LatNoRESTPushConfig, mock.LatReordered,
		mock.LatRuntimeObject, mock.LatVersionsOnly} {
		t.Run(lat, func(t *testing.T) {
			rows := run(t, nil, lat)
			for id, r := range rows {
				if r.Verdict == harness.ExecutedFail || r.Verdict == harness.NotTested {
					t.Errorf("%s: %s: %s", id, r.Verdict, r.Detail)
				}
				// Stronger than the gate: the reference host with a latitude on still grades every row (but D.9 with
				// message replies: no run is created, so there is nothing in a tenant to look at).
				if r.Verdict != harness.ExecutedPass && !(id == "AC-D.9" && lat == mock.LatMessageReply && r.Verdict == harness.Inapplicable) {
					t.Errorf("%s: %s, want executed-pass: %s", id, r.Verdict, r.Detail)
				}
			}
		})
	}
}
