package suites_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/suites"
)

func prepare(t *testing.T, doc string) (target.Config, error) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "cfg.json")
	if err := os.WriteFile(p, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := target.LoadConfig(p)
	if err != nil {
		return cfg, err
	}
	err = harness.PrepareConfig(&cfg, suites.Documents()...)
	return cfg, err
}

// A misspelt or case-variant member anywhere in a document's section is a configuration error naming its path.
func TestMisspeltMemberNamesItsPath(t *testing.T) {
	creds := `{"credentials": {"a": {"header": "Authorization", "value": "Bearer a"}}, `
	cases := []struct{ doc, path string }{
		{`{"documents": {"on-request": {"operater": {}}}}`, `"operater" at $.documents.on-request`},
		{`{"documents": {"on-request": {"operator": {"consentToAction": true}}}}`, `"consentToAction" at $.documents.on-request.operator`},
		{`{"documents": {"on-request": {"operator": {"limits": {"perassistant": 1}}}}}`, `"perassistant" at $.documents.on-request.operator.limits`},
		{`{"documents": {"on-request": {"actingFor": {"Header": "X"}}}}`, `"Header" at $.documents.on-request.actingFor`},
		{`{"documents": {"schema-interface": {"multiOperations": {}}}}`, `"multiOperations" at $.documents.schema-interface`},
		{`{"documents": {"schema-interface": {"authorization": {"resource": {"canary": []}}}}}`, `"canary" at $.documents.schema-interface.authorization.resource`},
		{`{"documents": {"schema-interface": {"approval": {"skill": "s", "cases": [{"grant": {"uri": "x"}}]}}}}`, `"uri" at $.documents.schema-interface.approval.cases[0].grant`},
		{`{"documents": {"terms": {"changehook": "https://x"}}}`, `"changehook" at $.documents.terms`},
		{`{"documents": {"terms": {"claims": [{"kind": "term", "spam": "x"}]}}}`, `"spam" at $.documents.terms.claims[0]`},
		{`{"documents": {"interview": {"agents": {"noTerms": "https://x"}}}}`, `"noTerms" at $.documents.interview.agents`},
		{`{"documents": {"interview": {"principals": "a"}}}`, `"principals" at $.documents.interview`},
		{`{"documents": {"agent-cards": {"canaries": {"system-prompt": ["x"]}}}}`, `"system-prompt" at $.documents.agent-cards.canaries`},
		{`{"documents": {"agent-cards": {"Inventory": "https://x"}}}`, `"Inventory" at $.documents.agent-cards`},
		{`{"documents": {"agent-card": {}}}`, `"agent-card" at $.documents`},
		{`{"credentials": {"a": {"header": "H", "valu": "x"}}}`, `"valu" at $.credentials.a`},
		{`{"credentials": {"a": {"header": "H", "value": {"fromenv": "X"}}}}`, `"fromenv"`},
		{creds + `"documents": {"schema-interface": {"principals": {"A": "b"}}}}`, `$.documents.schema-interface.principals.A: no credential named "b"`},
		{creds + `"documents": {"terms": {"principals": ["a", "z"]}}}`, `$.documents.terms.principals[1]: no credential named "z"`},
	}
	for _, c := range cases {
		_, err := prepare(t, c.doc)
		if err == nil || !strings.Contains(err.Error(), c.path) {
			t.Errorf("%s\n  got %v\n  want an error containing %s", c.doc, err, c.path)
		}
	}
}

// A section reaches the members its suite reads; a credential goes only to the document that names it.
func TestSectionsApply(t *testing.T) {
	t.Setenv("EXTCONF_TEST_TOKEN", "Bearer from-env")
	cfg, err := prepare(t, `{
  "credentials": {"tenantA": {"header": "Authorization", "value": {"fromEnv": "EXTCONF_TEST_TOKEN"}}},
  "documents": {
    "schema-interface": {"principals": {"A": "tenantA"}, "primary": "s1", "unavailableSkill": "gone"},
    "on-request": {"operator": {"consentToActions": true}, "agents": {"unstaffed": "https://u.example/card"}},
    "terms": {"changeHook": "https://h.example/hook"}
  }
}`)
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := cfg.PrincipalOf("schema-interface", "A"); !ok || p.Value != "Bearer from-env" {
		t.Errorf("schema-interface.A = %+v, %v", p, ok)
	}
	if _, ok := cfg.PrincipalOf("interview", "A"); ok {
		t.Error("a credential named by schema-interface reached the interview")
	}
	if got := cfg.Requests["schema-interface.profile"]; len(got) != 1 || !strings.Contains(got[0], `"unavailableSkill":"gone"`) {
		t.Errorf("profile = %v", got)
	}
	if cfg.Agents["on-request.unstaffed"] != "https://u.example/card" || cfg.Agents["terms.change-hook"] != "https://h.example/hook" {
		t.Errorf("agents = %v", cfg.Agents)
	}
	if cfg.Inputs["on-request"] == nil {
		t.Error("the on-request section was not kept for Env.Input")
	}
}

func TestLegacyMembersWarn(t *testing.T) {
	cfg, err := prepare(t, `{"principals": {"A": {"header": "H", "value": "v"}}, "inventory": "https://x/agents",
  "agents": {"on-request.operator": "data:application/json,{}"},
  "requests": {"schema-interface.profile": ["{}"], "agent-cards:canary:system-prompt": ["c"]}}`)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(target.LegacyWarnings(cfg), "\n")
	for _, want := range []string{"$.principals.A", "$.documents.agent-cards.inventory", "$.documents.on-request.operator",
		"the members of $.documents.schema-interface", "$.documents.agent-cards.canaries.systemPrompt"} {
		if !strings.Contains(got, want) {
			t.Errorf("warnings lack %q:\n%s", want, got)
		}
	}
}

// "absent" takes only members of the document's Needs table; config check's prediction honours it.
func TestAbsentMembers(t *testing.T) {
	if _, err := prepare(t, `{"documents": {"schema-interface": {"absent": {"multiOperations": "none"}}}}`); err == nil ||
		!strings.Contains(err.Error(), `unknown member "multiOperations" at $.documents.schema-interface.absent`) {
		t.Errorf("a misspelt absent member: %v", err)
	}
	// Valid arguments exist for every skill: declaring them absent would turn applicable rows inapplicable.
	if _, err := prepare(t, `{"documents": {"schema-interface": {"absent": {"arguments|requests": "none"}}}}`); err == nil ||
		!strings.Contains(err.Error(), `$.documents.schema-interface.absent.arguments|requests: every target has`) {
		t.Errorf("an always-present input declared absent: %v", err)
	}
	cfg, err := prepare(t, `{"documents": {"schema-interface": {"absent": {"multiOperation": "none"}}}}`)
	if err != nil {
		t.Fatal(err)
	}
	preds := harness.Predict(cfg.Documents, suites.Documents()...)
	got := map[string]harness.RowPrediction{}
	for _, p := range preds {
		got[p.Row] = p
	}
	if p := got["SI-8.4a"]; p.Verdict != harness.Inapplicable || p.Why != "none" {
		t.Errorf("SI-8.4a predicted %+v", p)
	}
	if p := got["SI-6.5b"]; p.Verdict != harness.Blocked || p.Member != "documents.schema-interface.semantic" {
		t.Errorf("SI-6.5b predicted %+v", p)
	}
}
