package evidence

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/catalog"
)

// Standing is the banner every renderer shows: a self-run result is a claim, never evidence (interview §8–§9).
func (b *Bundle) Standing() string { return StandingWith(b, StandingOptions{}) }

// StandingOptions are the banner's deliberate faults. The engine knows no sabotage registry: the interview suite
// fills them from its run's toggles.
type StandingOptions struct {
	// SelfAsEvidence (toggle iv.renderer-self-as-evidence) labels every run evidence, so the interview suite can
	// show that its IV-8.1 check fails when the banner lies.
	SelfAsEvidence bool
}

// StandingWith is Standing with o's faults.
func StandingWith(b *Bundle, o StandingOptions) string {
	if isEvidence(b) || o.SelfAsEvidence {
		thumb := "(none)"
		if b.Signature != nil {
			thumb = b.Signature.Thumbprint
		}
		return fmt.Sprintf("EVIDENCE: %s third-party run by %q, signed by key %s", strings.ToUpper(b.Status), b.Runner.Name, thumb)
	}
	who := b.Runner.Name
	if who == "" {
		who = "an unnamed runner"
	}
	return fmt.Sprintf("CLAIM, NOT EVIDENCE: %s run by %s (tier %s)", strings.ToUpper(b.Status), who, b.Runner.Tier)
}

// Summary writes the terminal summary of a bundle nobody verified: SummaryWith without a report (a bundle that
// states it is evidence reads "signed by an unpinned key").
func Summary(w io.Writer, b *Bundle) { SummaryWith(w, b, nil) }

// SummaryWith writes the terminal summary: the headline (Headline: what rep's verification lets it say), verdict
// counts per document, then every row that did not pass with its detail. The table comes last, as the CLI
// contract asks.
func SummaryWith(w io.Writer, b *Bundle, rep *Report) {
	cat := catalog.MustLoad()
	headline := Headline(b, rep)
	fmt.Fprintf(w, "\n%s\n", headline)
	fmt.Fprintf(w, "target %s  catalog %s  seed %d  exchanges %d  assertions %d\n",
		b.Target.Kind, short(b.Catalog.Digest), b.Seed, b.Transcript.Exchanges, b.AssertionCount)
	if c := b.Target.Client; c != nil {
		fmt.Fprintf(w, "client under test: %s  (%s %s)  scenarios %d  scope rows %d: %s\n", c.Command, c.Name, c.Version,
			len(c.Scenarios), len(c.ScopeRows), strings.ToUpper(c.ScopeStatus))
	}
	summaryStanding(w, b)
	// A detail shared by several rows (a dead target, a missing input) is printed once, with the rows it stands
	// for, instead of once per row.
	printRows := func(rows []harness.RowVerdict, prefix string) {
		shared := map[string][]string{}
		for _, r := range rows {
			if r.Verdict == harness.ExecutedFail || r.Verdict == harness.Blocked || r.Verdict == harness.NotTested {
				k := r.Verdict + "\x00" + strings.TrimSpace(r.Detail)
				shared[k] = append(shared[k], r.ID)
			}
		}
		done := map[string]bool{}
		for _, r := range rows {
			k := r.Verdict + "\x00" + strings.TrimSpace(r.Detail)
			ids := shared[k]
			if len(ids) == 0 || done[k] {
				continue
			}
			done[k] = true
			if len(ids) > 2 {
				fmt.Fprintf(w, "\n%s%s %d rows (%s):\n", prefix, strings.ToUpper(r.Verdict), len(ids), clipList(ids, 12))
			} else {
				for _, id := range ids {
					row, _ := cat.Row(id)
					fmt.Fprintf(w, "\n%s%s %s  %s: %q\n", prefix, strings.ToUpper(r.Verdict), id, row.Level, row.Clause)
				}
			}
			for _, line := range strings.Split(strings.TrimSpace(r.Detail), "\n") {
				fmt.Fprintf(w, "    %s\n", line)
			}
		}
	}
	target, self, advisory := harness.RequiredRows(b.Rows), harness.SelfCheckRows(b.Rows), harness.AdvisoryRows(b.Rows)
	printRows(self, "SELF-CHECK ")
	printRows(advisory, "ADVISORY ")
	printRows(target, "")
	if len(self) > 0 {
		fmt.Fprintf(w, "\nharness self-check (rows about the harness's own reference client; not the target's result): %s\n", strings.ToUpper(b.SelfCheck.Status))
		countTable(w, self, b.SelfCheck.Totals)
		if b.SelfCheck.Status == harness.SelfCheckFailed {
			fmt.Fprintln(w, "HARNESS DEFECT: a self-check failed; the harness, not the target, is at fault")
		}
	}
	if len(advisory) > 0 {
		fmt.Fprintf(w, "\nadvisory (recommendation rows about %s: SHOULD, SHOULD NOT, RECOMMENDED): %d finding(s)%s\n", Subject(b), b.Advisory.Count, AdvisoryNote(b))
		countTable(w, advisory, b.Advisory.Totals)
	}
	fmt.Fprintf(w, "\n%s (requirement rows about %s):\n", strings.TrimPrefix(Subject(b), "the "), Subject(b))
	countTable(w, target, b.Totals)
	fmt.Fprintf(w, "%s (%s)\n", StatusLine(b), standingOf(b, rep)) // the status line already holds the reason
}

// Subject is what the rows about the run's subject are about, for people: "the target" (an agent), or "the client
// under test" in a client certification (runsuite client), whose rows are about the client, not an agent.
func Subject(b *Bundle) string {
	if b.Target.Kind == TargetKindClient {
		return "the client under test"
	}
	return "the target"
}

// AdvisoryNote says what the advisory findings do to the run: nothing unless it is strict.
func AdvisoryNote(b *Bundle) string {
	switch {
	case b.Advisory.Count == 0:
		return ""
	case b.Selection.Strict:
		return "; --strict: they fail the run"
	}
	return "; reported, not failing the run (--strict would fail it)"
}

// StatusLine is the target's status for people: "PASSED", "FAILED", "INCOMPLETE: 0 failed, N blocked (what to
// state)", "NOTHING GRADED: <why>", "INTERRUPTED: <why>".
func StatusLine(b *Bundle) string {
	s := strings.ToUpper(strings.ReplaceAll(b.Status, "-", " "))
	if b.StatusReason != "" {
		s += ": " + b.StatusReason
	}
	return s
}

// countTable writes verdict counts per document of rows, then totals.
func countTable(w io.Writer, rows []harness.RowVerdict, totals map[string]int) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "document")
	for _, v := range harness.VerdictOrder {
		fmt.Fprintf(tw, "\t%s", v)
	}
	fmt.Fprintln(tw)
	docs, per := countsByDocument(rows)
	for _, d := range docs {
		fmt.Fprint(tw, d)
		for _, v := range harness.VerdictOrder {
			fmt.Fprintf(tw, "\t%d", per[d][v])
		}
		fmt.Fprintln(tw)
	}
	fmt.Fprint(tw, "total")
	for _, v := range harness.VerdictOrder {
		fmt.Fprintf(tw, "\t%d", totals[v])
	}
	fmt.Fprintln(tw)
	tw.Flush()
}

// countsByDocument counts rows per document and verdict; docs are the documents present, sorted. The terminal
// summary and the HTML report draw their count tables from it.
func countsByDocument(rows []harness.RowVerdict) (docs []string, per map[string]map[string]int) {
	per = map[string]map[string]int{}
	for _, r := range rows {
		if per[r.Document] == nil {
			per[r.Document] = map[string]int{}
		}
		per[r.Document][r.Verdict]++
	}
	docs = make([]string, 0, len(per))
	for d := range per {
		docs = append(docs, d)
	}
	sort.Strings(docs)
	return docs, per
}

// FalsifySummary writes the per-toggle and per-row tables of a falsification.
func FalsifySummary(w io.Writer, f *Falsifiability, witnessable []string) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "toggle\ttargets\tkilled\tsurvived\tcollateral")
	for _, t := range f.Toggles {
		surv := strings.Join(t.Survived, ",")
		if t.Error != "" {
			surv += " (" + t.Error + ")"
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\n", t.ID, len(t.Targets), len(t.Killed), dash(surv), dash(strings.Join(t.Collateral, ",")))
	}
	tw.Flush()
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "row\tkilled by")
	for _, id := range witnessable {
		fmt.Fprintf(tw, "%s\t%s\n", id, dash(strings.Join(f.Rows[id], ",")))
	}
	tw.Flush()
	LatitudeSummary(w, f)
}

// LatitudeSummary writes the latitudes section of a falsification: one line per latitude, then each failed row,
// then "latitudes survived N/M". Nothing when no latitude ran.
func LatitudeSummary(w io.Writer, f *Falsifiability) {
	if len(f.Latitudes) == 0 {
		return
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "latitude\tdocuments\trows\tsurvived\tfailed")
	for _, l := range f.Latitudes {
		var failed []string
		for _, fr := range l.Failed {
			failed = append(failed, fr.Row)
		}
		fl := strings.Join(failed, ",")
		if l.Error != "" {
			fl += " (" + l.Error + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\n", l.ID, strings.Join(l.Documents, ","), l.Rows, yesNo(l.Survived), dash(fl))
	}
	tw.Flush()
	for _, l := range f.Latitudes {
		for _, fr := range l.Failed {
			fmt.Fprintf(w, "LATITUDE %s: %s is %s: %s\n", l.ID, fr.Row, fr.Verdict, firstLineOf(fr.Detail))
		}
	}
	sv, n := f.LatitudesSurvived()
	fmt.Fprintf(w, "latitudes survived %d/%d\n", sv, n)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func firstLineOf(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func short(d string) string {
	if len(d) > 19 {
		return d[:19] + "…"
	}
	return d
}

// summaryStanding writes who ran it, why it has its tier, who signed it, and how far its passes are proven.
func summaryStanding(w io.Writer, b *Bundle) {
	who := b.Runner.Name
	if who == "" {
		who = "(unnamed)"
	}
	fmt.Fprintf(w, "runner %s  tier %s  kind %s", who, b.Runner.Tier, b.Kind)
	if b.TierBasis != "" {
		fmt.Fprintf(w, "  (%s)", b.TierBasis)
	}
	fmt.Fprintln(w)
	switch s := b.Signature; {
	case s == nil:
		fmt.Fprintln(w, "signature: unsigned (a claim, whoever ran it)")
	case TestKeyThumbprints[s.Thumbprint] != "":
		fmt.Fprintf(w, "signature: %s key %s — the TEST-ONLY key %s (integrity only)\n", s.Alg, s.Thumbprint, TestKeyThumbprints[s.Thumbprint])
	default:
		fmt.Fprintf(w, "signature: %s key %s (check with `runsuite verify --key`)\n", s.Alg, s.Thumbprint)
	}
	if f := b.Falsifiability; f != nil {
		unproven := 0
		for _, r := range b.Rows {
			if r.Verdict == harness.ExecutedPass && len(f.Rows[r.ID]) == 0 {
				unproven++
			}
		}
		fmt.Fprintf(w, "falsifiability: %d toggles, %d rows killed, %d passing rows not proven able to fail", len(f.Toggles), len(f.Rows), unproven)
		if len(f.Latitudes) > 0 {
			sv, n := f.LatitudesSurvived()
			fmt.Fprintf(w, "; latitudes survived %d/%d", sv, n)
		}
		fmt.Fprintln(w)
	}
}

// AgentName names what was certified, for titles and suite names: the client under test, or the distinct names
// of the target's cards (the first three, then a count); "" when no card was read.
func AgentName(b *Bundle) string {
	if c := b.Target.Client; c != nil {
		if c.Name != "" {
			return c.Name
		}
		return c.Command
	}
	var names []string
	for _, c := range b.Target.Cards {
		if n := strings.TrimSpace(c.Name); n != "" && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	if len(names) > 3 {
		return strings.Join(names[:3], ", ") + fmt.Sprintf(" and %d more", len(names)-3)
	}
	return strings.Join(names, ", ")
}

// DocumentAgentName is the name of the card playing doc's role (the agent a document's rows are about), else
// AgentName.
func DocumentAgentName(b *Bundle, doc string) string {
	for _, c := range b.Target.Cards {
		if c.Role == doc && strings.TrimSpace(c.Name) != "" {
			return strings.TrimSpace(c.Name)
		}
	}
	return AgentName(b)
}
