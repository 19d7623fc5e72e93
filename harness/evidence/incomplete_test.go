package evidence_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/evidence"
	"github.com/extconf/extconf/harness/target"
)

// Issue 35, item 1: a run where nothing failed but a row is blocked reads INCOMPLETE with the cause in the headline,
// the HTML banner and the JUnit report (where the blocked row is an error, never a failure); the bundle carries
// the status and verification recomputes it. Reports name the agent (its card's name).
func TestIncompleteRendersAndVerifies(t *testing.T) {
	cardURL := fixtureCard(t)
	s := harness.Suite{Document: "terms",
		Applicable: func(context.Context, *harness.Env) (bool, string) { return true, "" },
		Register: func(e *harness.Env) {
			harness.Spec(e, "TE-3.1", "passes", func(w *harness.W) {
				card, _, ex := w.Card("terms")
				w.Check(card != nil, "a card", "a card", ex)
			})
			harness.Spec(e, "TE-3.2a", "blocks", func(w *harness.W) {
				w.Blocked("documents.terms.proposal is missing: the URL of a signed proposal")
			})
		}}
	tgt := &target.Target{Kind: target.KindURL, Agents: map[string]string{"terms": cardURL}}
	res, err := harness.Run(context.Background(), tgt, harness.Options{Suites: []harness.Suite{s}, Documents: []string{"terms"}, Rows: []string{"TE-3.1", "TE-3.2a"}, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	transcript, err := evidence.Transcript(res)
	if err != nil {
		t.Fatal(err)
	}
	b, err := evidence.New(res, tgt, transcript, nil)
	if err != nil {
		t.Fatal(err)
	}
	const want = "INCOMPLETE: 0 failed, 1 blocked (documents.terms.proposal [1 row])"
	if b.Status != harness.StatusIncomplete || evidence.StatusLine(b) != want {
		t.Fatalf("status %s, line %q; want %q", b.Status, evidence.StatusLine(b), want)
	}
	if h := evidence.Headline(b, nil); !strings.Contains(h, want) {
		t.Errorf("headline %q lacks %q", h, want)
	}
	var sum, junit, page bytes.Buffer
	evidence.Summary(&sum, b)
	if err := evidence.JUnit(&junit, b); err != nil {
		t.Fatal(err)
	}
	if err := evidence.HTML(&page, b, evidence.HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"summary": sum.String(), "junit": junit.String(), "html": page.String()} {
		if !strings.Contains(out, want) {
			t.Errorf("%s lacks %q:\n%.1500s", name, want, out)
		}
	}
	j := junit.String()
	if !strings.Contains(j, `failures="0"`) || !strings.Contains(j, `<error type="blocked"`) || !strings.Contains(j, `<testsuite name="terms (fixture)"`) {
		t.Errorf("JUnit: the blocked row must be an error, not a failure, in a suite named after the agent:\n%.2000s", j)
	}
	if !strings.Contains(page.String(), "<title>extconf CLAIM: fixture incomplete") {
		t.Errorf("HTML title does not name the agent:\n%.600s", page.String())
	}

	path, err := evidence.WriteDir(t.TempDir(), b, transcript)
	if err != nil {
		t.Fatal(err)
	}
	if rep := verify(t, path, nil); !rep.OK() {
		t.Fatalf("an incomplete bundle does not verify: %v", rep.Problems())
	}
	// A bundle whose incomplete reason is not the rows' causes does not verify; nor one calling the rows failed.
	raw, _ := os.ReadFile(path)
	for _, c := range []struct{ member, value, problem string }{
		{"statusReason", "0 failed, 1 blocked (nothing to state)", "statusReason is"},
		{"status", harness.StatusFailed, `make it "incomplete"`},
	} {
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		m[c.member] = c.value
		edited, _ := json.Marshal(m)
		if err := os.WriteFile(path, edited, 0o644); err != nil {
			t.Fatal(err)
		}
		rep := verify(t, path, nil)
		if rep.OK() || !strings.Contains(strings.Join(rep.Problems(), "\n"), c.problem) {
			t.Errorf("a bundle with %s %q verifies: %v", c.member, c.value, rep.Problems())
		}
	}
}
