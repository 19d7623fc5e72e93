package harness

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	gtypes "github.com/onsi/ginkgo/v2/types"

	"github.com/extconf/extconf/harness/catalog"
)

// Verdicts a row can have. Only ExecutedPass reads as a pass.
const (
	ExecutedPass  = "executed-pass"
	ExecutedFail  = "executed-fail"
	Blocked       = "blocked"
	Inapplicable  = "inapplicable"
	Unwitnessable = "unwitnessable"
	Skipped       = "skipped"
	NotTested     = "not-tested"
)

// VerdictOrder is the order summaries list verdicts in.
var VerdictOrder = []string{ExecutedPass, ExecutedFail, Blocked, NotTested, Inapplicable, Unwitnessable, Skipped}

// RowVerdict is one row's outcome in a run.
type RowVerdict struct {
	ID        string   `json:"id"`
	Document  string   `json:"document"`
	Aliases   []string `json:"aliases,omitempty"`
	SelfCheck bool     `json:"selfCheck,omitempty"` // about the harness (its reference client), not the target
	// Advisory: a recommendation row (SHOULD-level) about the target: graded like any other, but a finding on it
	// does not fail the run unless the run is strict.
	Advisory   bool     `json:"advisory,omitempty"`
	Verdict    string   `json:"verdict"`
	Assertions int      `json:"assertions"`
	Controls   int      `json:"controls,omitempty"`
	Detail     string   `json:"detail,omitempty"`
	Specs      []string `json:"specs,omitempty"`
	Exchanges  []string `json:"exchanges,omitempty"`
}

// Counts a verdict against the run (executed-fail: exit 1; blocked, not-tested: incomplete, exit 4): anything but a pass, an honest inapplicable/unwitnessable, or
// a row the user left out.
func (v RowVerdict) Counts() bool {
	switch v.Verdict {
	case ExecutedFail, Blocked, NotTested:
		return true
	}
	return false
}

// one spec's contribution to a row
type contribution struct {
	verdict    string
	detail     string
	assertions int
	controls   int
	exchanges  []string
	spec       string
}

// Verdicts turns a Ginkgo report into one verdict per catalog row. A row passes only when every spec labelled
// with it ran, passed and executed at least one assertion on it.
func Verdicts(cat *catalog.Catalog, report gtypes.Report, sel Selection, env *Env) []RowVerdict {
	contribs := map[string][]contribution{}
	for _, sr := range report.SpecReports {
		if sr.LeafNodeType != gtypes.NodeTypeIt {
			continue
		}
		var ledger SpecLedger
		for _, e := range sr.ReportEntries {
			if e.Name == ledgerEntry {
				_ = json.Unmarshal([]byte(e.StringRepresentation()), &ledger)
			}
		}
		name := sr.FullText()
		for _, id := range sr.Labels() {
			if _, ok := cat.Row(id); !ok {
				continue
			}
			l := ledger.Rows[id]
			if l == nil {
				l = &RowLedger{}
			}
			c := contribution{assertions: l.Assertions, controls: l.Controls, exchanges: l.Exchanges, spec: name}
			msg := strings.TrimSpace(sr.Failure.Message)
			switch {
			case sr.State == gtypes.SpecStateInterrupted ||
				(sr.State == gtypes.SpecStateSkipped && strings.HasPrefix(msg, interruptedPrefix)) ||
				(ledger.Interrupted && sr.State != gtypes.SpecStatePassed):
				c.verdict, c.detail = NotTested, InterruptedDetail
			case sr.State == gtypes.SpecStatePassed && l.Assertions > 0:
				c.verdict = ExecutedPass
			case sr.State == gtypes.SpecStatePassed:
				c.verdict, c.detail = NotTested, fmt.Sprintf("spec %q passed without executing an assertion on %s", name, id)
			case sr.State == gtypes.SpecStateSkipped && strings.HasPrefix(msg, blockedPrefix):
				c.verdict, c.detail = Blocked, strings.TrimPrefix(msg, blockedPrefix)
			case sr.State == gtypes.SpecStateSkipped && strings.HasPrefix(msg, inapplicablePrefix):
				c.verdict, c.detail = Inapplicable, strings.TrimPrefix(msg, inapplicablePrefix)
			case sr.State == gtypes.SpecStateSkipped || sr.State == gtypes.SpecStatePending:
				c.verdict, c.detail = Skipped, "not selected"
			case sr.State.Is(gtypes.SpecStateFailureStates):
				if ledger.FailedRow != "" && ledger.FailedRow != id && ledger.FailedRow != "harness-defect" {
					c.verdict = NotTested
					c.detail = fmt.Sprintf("spec %q stopped at a failure of %s before this row's checks completed", name, ledger.FailedRow)
				} else {
					c.verdict, c.detail = ExecutedFail, fmt.Sprintf("%s: %s", sr.State, msg)
				}
			default:
				c.verdict, c.detail = NotTested, "spec state "+sr.State.String()
			}
			if len(l.Notes) > 0 && c.verdict != NotTested {
				c.detail = strings.TrimPrefix(c.detail+"\n"+strings.Join(l.Notes, "\n"), "\n")
			}
			contribs[id] = append(contribs[id], c)
		}
	}

	inapplicableDocs := map[string]string{}
	for doc, a := range env.applicable {
		if !a.ok {
			inapplicableDocs[doc] = a.reason
		}
	}
	out := make([]RowVerdict, 0, len(cat.Rows))
	for _, r := range cat.Rows {
		v := RowVerdict{ID: r.ID, Document: r.Document, Aliases: r.Aliases, SelfCheck: r.SelfCheck(), Advisory: r.Advisory() && !r.SelfCheck()}
		cs := contribs[r.ID]
		switch {
		case !contains(sel.Documents, r.Document) || (len(sel.Rows) > 0 && !contains(sel.Rows, r.ID)):
			v.Verdict, v.Detail = Skipped, "not in the run's selection"
		case !r.Witnessable():
			v.Verdict, v.Detail = Unwitnessable, r.Why
		case inapplicableDocs[r.Document] != "" && allOf(cs, Inapplicable):
			v.Verdict, v.Detail = Inapplicable, inapplicableDocs[r.Document]
		case len(cs) == 0:
			v.Verdict, v.Detail = NotTested, "no spec witnesses this row"
		default:
			v = aggregate(v, cs)
		}
		out = append(out, v)
	}
	return out
}

// markInterrupted turns the rows an interrupted run never reached into not-tested "interrupted": a selected
// witnessable row that no spec settled (Ginkgo skips the remaining specs on an interrupt, and a run cancelled
// before it started ran none) must not read skipped or "no spec witnesses this row".
func markInterrupted(cat *catalog.Catalog, rows []RowVerdict, sel Selection) {
	for i, v := range rows {
		r, _ := cat.Row(v.ID)
		inSel := contains(sel.Documents, r.Document) && (len(sel.Rows) == 0 || contains(sel.Rows, r.ID))
		if !inSel || !r.Witnessable() {
			continue
		}
		if (v.Verdict == Skipped && len(v.Specs) > 0) || (v.Verdict == NotTested && v.Detail == "no spec witnesses this row" && len(v.Specs) == 0) {
			rows[i].Verdict, rows[i].Detail = NotTested, InterruptedDetail
		}
	}
}

func allOf(cs []contribution, verdict string) bool {
	for _, c := range cs {
		if c.verdict != verdict {
			return false
		}
	}
	return true
}

// aggregate combines a row's specs: any failure fails it; then anything unfinished; then blocked; a pass needs
// every spec to pass (specs that found the behaviour undeclared may stand beside passing ones).
func aggregate(v RowVerdict, cs []contribution) RowVerdict {
	rank := map[string]int{ExecutedFail: 0, NotTested: 1, Blocked: 2, Skipped: 3, ExecutedPass: 4, Inapplicable: 5}
	sort.SliceStable(cs, func(i, j int) bool { return rank[cs[i].verdict] < rank[cs[j].verdict] })
	v.Verdict = cs[0].verdict
	var details []string
	for _, c := range cs {
		v.Assertions += c.assertions
		v.Controls += c.controls
		v.Specs = append(v.Specs, c.spec)
		for _, ex := range c.exchanges {
			if !contains(v.Exchanges, ex) {
				v.Exchanges = append(v.Exchanges, ex)
			}
		}
		if c.verdict == v.Verdict && c.detail != "" && !contains(details, c.detail) {
			details = append(details, c.detail)
		}
	}
	v.Detail = strings.Join(details, "\n")
	return v
}

// Totals counts verdicts.
func Totals(rows []RowVerdict) map[string]int {
	t := map[string]int{}
	for _, v := range VerdictOrder {
		t[v] = 0
	}
	for _, r := range rows {
		t[r.Verdict]++
	}
	return t
}

// Passed reports whether none of rows counts against the run (fail, blocked, not-tested). Callers pass the rows
// of one subject (TargetRows or SelfCheckRows); Status is the whole rule for the target.
func Passed(rows []RowVerdict) bool {
	for _, r := range rows {
		if r.Counts() {
			return false
		}
	}
	return true
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(s[:])
}
