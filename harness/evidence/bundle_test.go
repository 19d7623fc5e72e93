package evidence_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/evidence"
	"github.com/extconf/extconf/harness/target"
)

func fixtureRun(t *testing.T) (*harness.Result, *target.Target) {
	t.Helper()
	s := harness.Suite{Document: "terms",
		Applicable: func(context.Context, *harness.Env) (bool, string) { return true, "" },
		Register: func(e *harness.Env) {
			harness.Spec(e, []string{"TE-3.1"}, "passes", func(w *harness.W) { w.Check("TE-3.1", true, "x", "x", nil) })
			harness.Spec(e, []string{"TE-3.2a"}, "fails", func(w *harness.W) { w.Check("TE-3.2a", false, "x", "y", nil) })
		}}
	tgt := &target.Target{Kind: target.KindURL, Agents: map[string]string{"": "http://127.0.0.1:1/"}}
	res, err := harness.Run(context.Background(), tgt, harness.Options{Suites: []harness.Suite{s}, Documents: []string{"terms"}, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	return res, tgt
}

func writeBundle(t *testing.T) string {
	res, tgt := fixtureRun(t)
	transcript, err := evidence.Transcript(res)
	if err != nil {
		t.Fatal(err)
	}
	b, err := evidence.New(res, tgt, transcript, nil)
	if err != nil {
		t.Fatal(err)
	}
	path, err := evidence.WriteDir(t.TempDir(), b, transcript)
	if err != nil {
		t.Fatal(err)
	}
	return path
}

func TestBundleValidatesAndVerifies(t *testing.T) {
	path := writeBundle(t)
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := evidence.Validate(raw); err != nil {
		t.Fatalf("bundle does not validate against evidence/bundle.schema.json: %v", err)
	}
	problems, err := evidence.Verify(path)
	if err != nil || len(problems) > 0 {
		t.Fatalf("untouched bundle does not verify: %v %v", err, problems)
	}
	b, _, _ := evidence.Load(path)
	if b.Kind != "claim" || !strings.Contains(b.Standing(), "CLAIM, NOT EVIDENCE") {
		t.Fatalf("self run not labelled a claim: %q %q", b.Kind, b.Standing())
	}
	if b.Status != "failed" {
		t.Fatalf("status %q with a failing row", b.Status)
	}
}

func TestVerifyNamesTampering(t *testing.T) {
	cases := map[string]struct {
		file, from, to, want string
	}{
		"flipped verdict": {"bundle.json", `"verdict":"executed-fail"`, `"verdict":"executed-pass"`, "witnessSha256"},
		"edited totals":   {"bundle.json", `"executed-pass":1`, `"executed-pass":2`, "totals"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			path := writeBundle(t)
			p := filepath.Join(filepath.Dir(path), tc.file)
			raw, _ := os.ReadFile(p)
			if !strings.Contains(string(raw), tc.from) {
				t.Fatalf("%s lacks %s", tc.file, tc.from)
			}
			_ = os.WriteFile(p, []byte(strings.Replace(string(raw), tc.from, tc.to, 1)), 0o644)
			problems, err := evidence.Verify(path)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(strings.Join(problems, "\n"), tc.want) {
				t.Fatalf("problems %v do not name %s", problems, tc.want)
			}
		})
	}
}
