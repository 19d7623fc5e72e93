package main

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/harness/evidence"
	"github.com/extconf/extconf/harness/rules"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/mockagents"
	"github.com/extconf/extconf/sabotage"
)

var proveCommand = command{
	name:     "prove",
	short:    "prove proposed data rules testable: pass clean, killed by their sabotage, survive their latitudes",
	synopsis: []string{"prove [--json FILE] RULE|DIR..."},
	long: `Against the reference agent of each rule's document the rule passes clean, fails on its own check with its
sabotage patched into the agent's answer (killed), and passes under each latitude (survived). Exit 0 when every
rule is proven, 1 when one is not (the table says why), 2 when a rule file is malformed. See docs/propose-a-rule.md.`,
	examples: []string{"# the example rules", "runsuite prove examples/rules/*.yaml", "# the proofs as JSON", "runsuite prove --json proofs.json examples/rules/"},
	run:      cmdProve,
}

const proveUsage = `usage: runsuite prove [--json FILE] RULE|DIR...

Proves that proposed rules (rule files, see docs/propose-a-rule.md) are testable: against the reference agent of
each rule's document the rule passes clean, fails on its own check with its sabotage patched into the agent's answer
(killed), and passes under each latitude (survived). Exit 0 when every rule is proven, 1 when one is not (the table
says why), 2 when a rule file is malformed.

  runsuite prove examples/rules/*.yaml
  runsuite prove --json proofs.json examples/rules/
`

// cmdProve is `runsuite prove`.
func cmdProve(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlags("prove")
	jsonFlag := fs.String("json", "", "write the proofs as JSON here")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		if u := (usageError{}); errors.As(err, &u) && errors.Is(u.error, flag.ErrHelp) {
			fmt.Fprint(stdout, proveUsage)
			return exitPass, nil
		}
		return exitUsage, err
	}
	if len(pos) == 0 {
		fmt.Fprint(stderr, proveUsage)
		return exitUsage, usageError{errors.New("name at least one rule file or directory")}
	}
	rs, err := loadRules(pos)
	if err != nil {
		return exitUsage, usageError{err}
	}
	started := time.Now().UTC()
	proofs, err := proveRules(ctx, rs, stderr)
	if err != nil {
		return exitFail, err
	}
	printProofs(stdout, proofs)
	proven := true
	for _, p := range proofs {
		proven = proven && p.Proven
	}
	if *jsonFlag != "" {
		cat, _ := catalog.Load()
		rep := rules.Report{Kind: "extconf-rule-proofs", Harness: evidence.BuildInfo(), Started: started.Format(time.RFC3339Nano),
			Proofs: proofs, Proven: proven, Note: rules.ReportNote}
		if cat != nil {
			rep.CatalogSHA256 = cat.Digest()
		}
		err := writeFileWith(*jsonFlag, func(w io.Writer) error {
			enc := json.NewEncoder(w)
			enc.SetIndent("", "  ")
			return enc.Encode(rep)
		})
		if err != nil {
			return exitFail, fmt.Errorf("--json: %w", err)
		}
	}
	if !proven {
		return exitFail, nil
	}
	return exitPass, nil
}

// loadRules reads rule files and directories of rule files.
func loadRules(paths []string) ([]*rules.Rule, error) {
	var out []*rules.Rule
	var errs []error
	seen := map[string]string{}
	for _, p := range paths {
		var rs []*rules.Rule
		var err error
		if st, serr := os.Stat(p); serr == nil && st.IsDir() {
			rs, err = rules.LoadDir(p)
		} else {
			rs, err = rules.LoadFiles(p)
		}
		if err != nil {
			errs = append(errs, err)
		}
		for _, r := range rs {
			if prev, dup := seen[r.ID]; dup {
				errs = append(errs, fmt.Errorf("%s: id %q is also the id of %s", r.File(), r.ID, prev))
				continue
			}
			seen[r.ID] = r.File()
			out = append(out, r)
		}
	}
	return out, errors.Join(errs...)
}

// proveRules starts, per rule, the clean reference agent of its document and proves the rule against it.
func proveRules(ctx context.Context, rs []*rules.Rule, stderr io.Writer) ([]*rules.Proof, error) {
	cert, err := testpki.IssueLeaf()
	if err != nil {
		return nil, err
	}
	var out []*rules.Proof
	for _, r := range rs {
		fmt.Fprintf(stderr, "runsuite: proving %s (%s) against the %s reference agent\n", r.ID, r.File(), r.Document)
		p, err := proveOne(ctx, r, cert)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

func proveOne(ctx context.Context, r *rules.Rule, cert tls.Certificate) (*rules.Proof, error) {
	tgt, err := mockagents.Start(sabotage.Set{}, r.Document)
	if err != nil {
		return nil, fmt.Errorf("reference agent for %s: %w", r.Document, err)
	}
	defer tgt.Close()
	cardURL, ok := tgt.CardURL(r.RoleOrDocument())
	if !ok {
		p := &rules.Proof{Rule: r.ID, File: r.File(), Document: r.Document, Proposed: true,
			Why: []string{fmt.Sprintf("the %s reference agents play no role %q", r.Document, r.RoleOrDocument())}}
		return p, nil
	}
	return rules.Prove(ctx, r, rules.Bed{CardURL: cardURL, Client: func() *a2a.Client { return loopbackClient(tgt) },
		Cert: cert, CAs: testpki.CAPool()}), nil
}

// loopbackClient is a fresh recording client for one evaluation against the in-process reference agents and the
// patching proxies in front of them: loopback only.
func loopbackClient(tgt *target.Target) *a2a.Client {
	return harness.NewClient(harness.ReachOf(tgt, nil), a2a.Options{RootCAs: tgt.RootCAs, CheckURL: func(u *url.URL) error {
		if u.Scheme != "https" && u.Scheme != "http" {
			return fmt.Errorf("scheme %q refused", u.Scheme)
		}
		if ip := net.ParseIP(u.Hostname()); ip == nil || !ip.IsLoopback() {
			return fmt.Errorf("off-loopback host %q refused: proving runs against the in-process reference agents only", u.Host)
		}
		return nil
	}})
}

func printProofs(w io.Writer, proofs []*rules.Proof) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "rule\tdocument\trestates\tclean\tsabotage\tlatitudes\tresult")
	for _, p := range proofs {
		clean, sab := "-", "-"
		if p.Clean != nil {
			clean = p.Clean.Verdict
		}
		if p.Sabotage != nil {
			sab = p.Sabotage.Result
		}
		survived := 0
		for _, l := range p.Latitudes {
			if l.Result == "survived" {
				survived++
			}
		}
		res := "PROVEN"
		if !p.Proven {
			res = "NOT PROVEN"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d/%d survived\t%s\n", p.Rule, p.Document, orDash(p.Restates), clean, sab,
			survived, len(p.Latitudes), res)
	}
	tw.Flush()
	for _, p := range proofs {
		for _, why := range p.Why {
			fmt.Fprintf(w, "NOT PROVEN %s: %s\n", p.Rule, why)
		}
	}
	fmt.Fprintf(w, "(%s)\n", rules.ReportNote)
}

// proposedPass evaluates data rules against a run's target with the run's client, after the run: their rows are
// proposed, printed apart and never counted in the run's status or its bundle.
func proposedPass(ctx context.Context, rs []*rules.Rule, res *harness.Result, stdout io.Writer) {
	if len(rs) == 0 {
		return
	}
	// The run's bounds, trust and reach, but its own recorder: the run's transcript holds only the run's exchanges.
	client := res.Env.NewClient(a2a.Options{Limits: res.Env.Client.Limits(), RootCAs: res.Env.Target.RootCAs})
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(stdout, "PROPOSED rows (%s): %d data rules\n", rules.ReportNote, len(rs))
	fmt.Fprintln(tw, "rule\tdocument\tverdict\tdetail")
	for _, r := range rs {
		cardURL, ok := res.Env.Target.CardURL(r.RoleOrDocument())
		var o *rules.Outcome
		if !slices.Contains(res.Selection.Documents, r.Document) {
			o = &rules.Outcome{Rule: r.ID, Verdict: "skipped", Reason: "its document was not selected (--suite)"}
		} else if !ok {
			o = &rules.Outcome{Rule: r.ID, Verdict: rules.Blocked, Reason: fmt.Sprintf("the target provides no agent for role %q", r.RoleOrDocument())}
		} else {
			o = rules.Evaluate(ctx, client, cardURL, r)
		}
		detail := o.Reason
		if o.Verdict == rules.Fail {
			detail = fmt.Sprintf("expected: %s; observed: %s; %s", o.Expected, o.Observed, strings.Join(o.Summaries(), "; "))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.ID, r.Document, strings.ToUpper(o.Verdict), detail)
	}
	tw.Flush()
	fmt.Fprintln(stdout)
}

// loadProposed reads `run --rules DIR` before the run starts (a malformed rule is a usage error, exit 2).
func loadProposed(dir string) ([]*rules.Rule, error) {
	if dir == "" {
		return nil, nil
	}
	rs, err := loadRules([]string{dir})
	if err == nil && len(rs) == 0 {
		err = fmt.Errorf("%s holds no rule files (*.yaml, *.yml, *.json)", dir)
	}
	return rs, err
}
