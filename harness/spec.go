// Package harness is the run engine: how a Ginkgo spec names the catalog rows it witnesses, how each executed
// assertion is counted against a row, how specs become row verdicts, and how a run is driven programmatically.
package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega/types"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/sabotage"
)

// Suite is one document's specs.
type Suite struct {
	Document string // catalog document id
	// Applicable decides whether the target declares the document; nil means "the card for the document's role
	// declares the document's extension URI". It runs once per run, inside the first spec that needs it.
	Applicable func(ctx context.Context, e *Env) (ok bool, reason string)
	// Register declares the suite's Ginkgo specs with Spec; it is called once per run, before RunSpecs.
	Register func(e *Env)
}

// Env is what specs see of a run: the target, the catalog, the recording client, and the client-side toggles the
// reference client procedures must honour. Suites never see a mock's internals.
type Env struct {
	Target   *target.Target
	Catalog  *catalog.Catalog
	Client   *a2a.Client
	Sabotage sabotage.Set // toggles on; reference-client procedures consult the client-side ones
	Runner   Runner

	mu          sync.Mutex
	cards       map[string]*cardFetch
	applicable  map[string]*applicability
	suites      map[string]Suite
	SpecTimeout time.Duration
}

// Runner is who runs the harness and with what standing (interview §8–§9: a self-run result is a claim).
type Runner struct {
	Name string `json:"name"`
	Tier string `json:"tier"` // self | third-party
}

type cardFetch struct {
	card *a2a.AgentCard
	raw  []byte
	ex   *a2a.Exchange
	err  error
}

type applicability struct {
	ok     bool
	reason string
}

// Card fetches (once per run) the card of the agent playing role. When no agent plays the role the spec is
// blocked; when the fetch fails the spec fails on the given row, naming the exchange.
func (w *W) Card(role, row string) (*a2a.AgentCard, []byte, *a2a.Exchange) {
	e := w.env
	url, ok := e.Target.CardURL(role)
	if !ok {
		w.Blocked(fmt.Sprintf("the target provides no agent for role %q (set agents.%s in the target configuration)", role, role))
	}
	card, raw, ex, err := e.fetchCard(w.Ctx(), url, role)
	w.cite(row, ex)
	if err != nil {
		w.fail(row, "the agent card can be fetched and decoded", err.Error(), ex)
	}
	return card, raw, ex
}

// W is a spec's handle: it counts assertions per row, holds positive controls, and builds failure messages from
// the catalog.
type W struct {
	env      *Env
	ctx      context.Context
	rows     []string
	ledger   map[string]*RowLedger
	failed   string
	controls map[string]bool
}

// RowLedger is what one spec did for one row; it travels in the Ginkgo report as a report entry.
type RowLedger struct {
	Assertions int      `json:"assertions"`
	Controls   int      `json:"controls"`
	Exchanges  []string `json:"exchanges,omitempty"`
}

// SpecLedger is the report entry a spec leaves behind.
type SpecLedger struct {
	Rows      map[string]*RowLedger `json:"rows"`
	FailedRow string                `json:"failedRow,omitempty"`
}

// ledgerEntry names the Ginkgo report entry carrying a SpecLedger.
const ledgerEntry = "extconf-ledger"

// Prefixes of skip messages that carry a verdict.
const (
	blockedPrefix      = "blocked: "
	inapplicablePrefix = "inapplicable: "
)

// Spec declares one Ginkgo spec witnessing rows. The rows are its labels; the body gets a W.
func Spec(e *Env, rows []string, text string, body func(w *W)) bool {
	labels := Label(rows...)
	timeout := e.SpecTimeout
	if timeout == 0 {
		timeout = 30 * time.Second
	}
	It(text, labels, func(ctx SpecContext) {
		w := &W{env: e, ctx: ctx, rows: rows, ledger: map[string]*RowLedger{}, controls: map[string]bool{}}
		for _, r := range rows {
			w.ledger[r] = &RowLedger{}
		}
		DeferCleanup(w.flush)
		if doc := documentOf(e.Catalog, rows); doc != "" {
			w.requireApplicable(doc)
		}
		body(w)
	}, SpecTimeout(timeout))
	return true
}

// Env returns the run's environment.
func (w *W) Env() *Env { return w.env }

// Ctx is the spec's context: cancelled at the spec timeout.
func (w *W) Ctx() context.Context { return w.ctx }

func (w *W) flush() {
	b, _ := json.Marshal(SpecLedger{Rows: w.ledger, FailedRow: w.failed})
	AddReportEntry(ledgerEntry, string(b), ReportEntryVisibilityNever)
}

func (w *W) row(id string) *RowLedger {
	l, ok := w.ledger[id]
	if !ok {
		// An assertion on a row the spec does not carry as a label would be counted nowhere.
		w.defect(fmt.Sprintf("assertion on row %s, which is not among this spec's labels %v", id, w.rows))
	}
	return l
}

func (w *W) cite(row string, ex *a2a.Exchange) {
	if ex == nil || ex.ID == "" {
		return
	}
	l := w.row(row)
	for _, id := range l.Exchanges {
		if id == ex.ID {
			return
		}
	}
	l.Exchanges = append(l.Exchanges, ex.ID)
}

// Check is the basic assertion: ok must hold for row. expected says what the row requires, observed what the
// target did, ex the exchange that shows it (may be nil for a static check of an already cited document).
func (w *W) Check(row string, ok bool, expected, observed string, ex *a2a.Exchange) {
	l := w.row(row)
	l.Assertions++
	w.cite(row, ex)
	if !ok {
		w.fail(row, expected, observed, ex)
	}
}

// Expect applies a Gomega matcher as an assertion on row.
func (w *W) Expect(row string, actual any, m types.GomegaMatcher, expected string, ex *a2a.Exchange) {
	ok, err := m.Match(actual)
	switch {
	case err != nil:
		w.Check(row, false, expected, "matcher error: "+err.Error(), ex)
	case !ok:
		w.Check(row, false, expected, strings.TrimSpace(m.FailureMessage(actual)), ex)
	default:
		w.Check(row, true, expected, "", ex)
	}
}

// Control records a positive control for row: the same call, made valid, succeeds. A failed control fails the
// row (the agent cannot serve the valid call), and it is what allows Negative assertions on the row.
func (w *W) Control(row string, ok bool, what, observed string, ex *a2a.Exchange) {
	l := w.row(row)
	l.Controls++
	w.cite(row, ex)
	if !ok {
		w.fail(row, "positive control: "+what, observed, ex)
	}
	w.controls[row] = true
}

// Negative is an assertion that the target refuses or withholds something. It is only valid after a passing
// Control on the same row in the same spec, so a refusal for an unrelated reason never passes the row.
func (w *W) Negative(row string, ok bool, expected, observed string, ex *a2a.Exchange) {
	if !w.controls[row] {
		w.defect(fmt.Sprintf("negative assertion on %s without a positive control before it", row))
	}
	w.Check(row, ok, expected, observed, ex)
}

// Blocked ends the spec: a prerequisite the target advertises (or the operator must supply) is missing.
func (w *W) Blocked(reason string) { Skip(blockedPrefix + reason) }

// Inapplicable ends the spec: the target does not declare the behaviour.
func (w *W) Inapplicable(reason string) { Skip(inapplicablePrefix + reason) }

// Failf fails row with a free observation (transport errors, undecodable answers).
func (w *W) Failf(row string, ex *a2a.Exchange, expected, format string, a ...any) {
	w.Check(row, false, expected, fmt.Sprintf(format, a...), ex)
}

func (w *W) defect(msg string) {
	w.failed = "harness-defect"
	Fail("harness defect: "+msg, 2)
}

func (w *W) fail(row, expected, observed string, ex *a2a.Exchange) {
	w.failed = row
	Fail(FailureMessage(w.env.Catalog, row, expected, observed, ex), 2)
}

// FailureMessage is built from the catalog: row id, level, quoted clause and source, expected, observed, exchange.
func FailureMessage(c *catalog.Catalog, row, expected, observed string, ex *a2a.Exchange) string {
	var b strings.Builder
	r, _ := c.Row(row)
	fmt.Fprintf(&b, "[%s] %s %s: %q\n", row, r.Level, r.Section, r.Clause)
	fmt.Fprintf(&b, "  spec text: %q\n", r.Source)
	fmt.Fprintf(&b, "  expected: %s\n", expected)
	fmt.Fprintf(&b, "  observed: %s\n", clip(observed, 600))
	if ex != nil {
		fmt.Fprintf(&b, "  exchange: %s\n", ex.Summary())
	} else {
		b.WriteString("  exchange: none (static check)\n")
	}
	return b.String()
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func documentOf(c *catalog.Catalog, rows []string) string {
	for _, id := range rows {
		if r, ok := c.Row(id); ok {
			return r.Document
		}
	}
	return ""
}
