package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/rules"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/mockagents"
	"github.com/extconf/extconf/sabotage"
	"github.com/extconf/extconf/suites"
)

const examples = "../../examples/rules"

// The Done-when of #29: every example is proven (pass clean, killed by its own check, latitudes survived), exit 0,
// and --json writes the proofs.
func TestProveExamples(t *testing.T) {
	out := filepath.Join(t.TempDir(), "proofs.json")
	paths, _ := filepath.Glob(filepath.Join(examples, "*.yaml"))
	code, stdout, stderr := runCLI(append([]string{"prove", "--json", out}, paths...)...)
	if code != exitPass {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, id := range []string{"P-TE-3.1", "P-TE-3.3b", "P-IV-3.1", "P-IV-6.1"} {
		line := lineWith(stdout, id+" ")
		if !strings.Contains(line, "executed-pass") || !strings.Contains(line, "killed") || !strings.Contains(line, "PROVEN") {
			t.Errorf("%s: %q", id, line)
		}
	}
	var rep rules.Report
	b, err := os.ReadFile(out)
	if err != nil || json.Unmarshal(b, &rep) != nil {
		t.Fatalf("--json: %v", err)
	}
	if !rep.Proven || len(rep.Proofs) != len(paths) || rep.CatalogSHA256 == "" {
		t.Errorf("report: proven %v, %d proofs, catalog %q", rep.Proven, len(rep.Proofs), rep.CatalogSHA256)
	}
}

func lineWith(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, sub) {
			return l
		}
	}
	return ""
}

// A rule that cannot fail, or that fails on the clean reference agent, exits 1 and says why; a malformed one 2.
func TestProveNotProvenExits1(t *testing.T) {
	base, err := os.ReadFile(filepath.Join(examples, "te-3.1.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, from, to string) string {
		p := filepath.Join(dir, name)
		src := strings.Replace(string(base), from, to, 1)
		if src == string(base) {
			t.Fatalf("%s: %q not in the example", name, from)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct {
		file, want string
		code       int
	}{
		{write("harmless.yaml", "path: /capabilities/extensions/0/required, value: true}", "path: /capabilities/extensions/0/required, value: false}"),
			"the sabotage does not make the check fail", exitFail},
		{write("strict.yaml", "check: >-\n", "check: >-\n  card.name == 'nobody' &&\n"),
			"the check does not pass on the clean reference agent", exitFail},
		{write("unknown.yaml", "witness: static", "witness: static\nwitnes: static"), "witnes: unknown member", exitUsage},
	}
	for _, c := range cases {
		code, stdout, stderr := runCLI("prove", c.file)
		if code != c.code || !strings.Contains(stdout+stderr, c.want) {
			t.Errorf("%s: exit %d, want %d mentioning %q\n%s%s", filepath.Base(c.file), code, c.code, c.want, stdout, stderr)
		}
	}
}

// The examples restate published rows: on the reference agent, with the Go toggle that breaks the row, and with
// the rule's own sabotage patched in, the data rule and the row's Go spec give the same verdicts.
func TestExampleRulesAgreeWithGoSpecs(t *testing.T) {
	toggles := map[string]sabotage.ID{ // the Go toggle each example's sabotage patch reproduces
		"P-TE-3.1":  sabotage.TermsDeclarationRequiredTrue,
		"P-TE-3.3b": sabotage.TermsDigestUppercaseHex,
		"P-IV-3.1":  sabotage.IVInterviewEntryRequired,
		"P-IV-6.1":  sabotage.IVRefusalWrongReason,
	}
	rs, err := rules.LoadDir(examples)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := testpki.IssueLeaf()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, r := range rs {
		tog, ok := toggles[r.ID]
		if !ok {
			t.Errorf("%s: name the Go toggle its sabotage reproduces in this test", r.ID)
			continue
		}
		on, err := sabotage.Parse(string(tog))
		if err != nil {
			t.Fatal(err)
		}
		for _, leg := range []struct {
			name string
			set  sabotage.Set
			ops  []rules.Op // the rule's sabotage, patched in through the proxy
			want string
		}{
			{"clean", sabotage.Set{}, nil, rules.Pass},
			{"toggle " + string(tog), on, nil, rules.Fail},
			{"rule sabotage", sabotage.Set{}, r.Sabotage.Ops, rules.Fail},
		} {
			if leg.ops != nil && r.Sabotage.Target == rules.TargetResponse {
				// The proxy rewrites the answer to the rule's own method; the Go spec asks a fresh random method
				// name, so under the patch only the rule is compared (the toggle leg compares both).
				continue
			}
			tgt, err := mockagents.Start(leg.set, r.Document)
			if err != nil {
				t.Fatal(err)
			}
			cardURL, _ := tgt.CardURL(r.RoleOrDocument())
			run := tgt
			if leg.ops != nil {
				px, err := rules.StartProxy(cardURL, cert, testpki.CAPool(), r, r.Sabotage.Target, leg.ops)
				if err != nil {
					t.Fatal(err)
				}
				cardURL = px.CardURL
				run = &target.Target{Kind: target.KindMock, Agents: map[string]string{r.RoleOrDocument(): px.CardURL},
					RootCAs: tgt.RootCAs, Config: tgt.Config}
				defer px.Close()
			}
			o := rules.Evaluate(ctx, loopbackClient(tgt), cardURL, r)
			res, err := harness.Run(ctx, run, harness.Options{Suites: suites.All(), Documents: []string{r.Document},
				Rows: []string{r.Restates}, Sabotage: leg.set, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			goVerdict := ""
			for _, v := range res.Rows {
				if v.ID == r.Restates {
					goVerdict = v.Verdict
				}
			}
			if o.Verdict != leg.want || goVerdict != leg.want {
				t.Errorf("%s vs %s, %s: rule %s (%s), Go spec %s; want both %s", r.ID, r.Restates, leg.name,
					o.Verdict, o.Observed+o.Reason, goVerdict, leg.want)
			}
			tgt.Close()
		}
	}
}

// run --rules evaluates data rules as proposed rows: printed apart, never in the bundle or the exit status; a
// malformed rule directory is a usage error before the run starts.
func TestRunWithRules(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := runCLI("run", "--suite", "terms", "--rules", examples, "--out", dir)
	if code != exitPass || !strings.Contains(stdout, "PROPOSED rows") ||
		!strings.Contains(lineWith(stdout, "P-TE-3.3b "), "EXECUTED-PASS") || !strings.Contains(lineWith(stdout, "P-IV-3.1 "), "SKIPPED") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, f := range []string{"bundle.json", "transcript.jsonl"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil || strings.Contains(string(b), "P-TE-3") {
			t.Errorf("%s must not carry proposed rows or their exchanges (err %v)", f, err)
		}
	}
	if strings.Contains(stderr, "HARNESS DEFECT") {
		t.Errorf("the bundle does not verify: %s", stderr)
	}
	if code, _, stderr := runCLI("run", "--rules", filepath.Join(dir, "nope"), "--out", dir); code != exitUsage {
		t.Errorf("--rules on a missing directory: exit %d (%s), want 2", code, stderr)
	}
}
