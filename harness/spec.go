package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega/types"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/harness/target"
)

// Suite is one document's specs.
type Suite struct {
	Document string // catalog document id
	// Applicable decides whether the target declares the document; nil means "the card for the document's role
	// declares the document's extension URI". It runs once per run, inside the first spec that needs it.
	Applicable func(ctx context.Context, e *Env) (ok bool, reason string)
	// Register declares the suite's Ginkgo specs with Spec; it is called once per run, before RunSpecs.
	Register func(e *Env)
	// Origins, set by Suites from the suite's Document, names the origins its operator input lets the run reach.
	Origins func(cfg target.Config) []string
}

// Faults are the sabotage toggles switched on for a run, as the engine carries them: ids only. The engine never
// consults one, so it need not know the registry; the documents' packages recover their typed set with
// sabotage.From, which sabotage.Set satisfies.
type Faults interface{ IDs() []string }

// Env is what specs see of a run: the target, the catalog, the recording client, and the client-side toggles the
// reference client procedures must honour. Suites never see a mock's internals.
type Env struct {
	Target   *target.Target
	Catalog  *catalog.Catalog
	Client   *a2a.Client
	Sabotage Faults // toggles on (nil: none); reference-client procedures consult the client-side ones
	Runner   Runner

	mu          sync.Mutex
	cards       map[string]*cardFetch
	applicable  map[string]*applicability
	suites      map[string]Suite
	reach       *Reach
	SpecTimeout time.Duration
	runCtx      context.Context // ends when the run is interrupted
	state       sync.Map        // RunState: per-run values of the suites, gone with the Env
	// clients made for peers that outlive the run (the counterparts): closed when it ends, or their connections
	// would hold memory until the idle timeout
	clients []*a2a.Client
}

// RunState returns the run's value for key, storing mk() on first use. Suites keep per-run state here rather than
// in package-level maps keyed by the Env: what is stored here is released with the run (nothing per-run survives
// it, however many runs one process makes).
func (e *Env) RunState(key any, mk func() any) any {
	if v, ok := e.state.Load(key); ok {
		return v
	}
	v, _ := e.state.LoadOrStore(key, mk())
	return v
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
// blocked; when the fetch fails the spec fails on its row, naming the exchange.
func (w *W) Card(role string) (*a2a.AgentCard, []byte, *a2a.Exchange) {
	e := w.env
	url, ok := e.Target.CardURL(role)
	if !ok {
		w.Blocked(fmt.Sprintf("the target provides no agent for role %q (set agents.%s in the target configuration)", role, role))
	}
	card, raw, ex, err := e.fetchCard(w.Ctx(), url, role)
	w.cite(ex)
	if err != nil {
		if w.selfCheck() {
			// A self-check row reads the target's card only as material for the harness's own verifier: a card
			// that cannot be read says nothing about the harness, so it blocks the row, never fails it (exit 3).
			w.Blocked("the self-check needs the target's card, which cannot be read: " + err.Error())
		}
		w.fail("the agent card can be fetched and decoded", err.Error(), ex)
	}
	return card, raw, ex
}

// selfCheck reports whether the spec's row is about the harness itself (catalog witness: reference client).
func (w *W) selfCheck() bool {
	r, ok := w.env.Catalog.Row(w.row)
	return ok && r.SelfCheck()
}

// W is a spec's handle: it counts the assertions made on the spec's one row, holds its positive control, and
// builds failure messages from the catalog.
type W struct {
	env     *Env
	ctx     context.Context
	row     string
	ledger  RowLedger
	failed  string
	control bool
}

// RowLedger is what one spec did for its row; it travels in the Ginkgo report as a report entry.
type RowLedger struct {
	Assertions int      `json:"assertions"`
	Controls   int      `json:"controls"`
	Exchanges  []string `json:"exchanges,omitempty"`
	// Notes say what the row's verdict rests on beyond the operator's input (an input the suite derived by
	// probing); they end up in the row's detail whatever its verdict.
	Notes []string `json:"notes,omitempty"`
}

// SpecLedger is the report entry a spec leaves behind.
type SpecLedger struct {
	Rows        map[string]*RowLedger `json:"rows"`
	FailedRow   string                `json:"failedRow,omitempty"`
	Interrupted bool                  `json:"interrupted,omitempty"` // the run was interrupted before the spec ended
}

// ledgerEntry names the Ginkgo report entry carrying a SpecLedger.
const ledgerEntry = "extconf-ledger"

// Prefixes of skip messages that carry a verdict.
const (
	blockedPrefix      = "blocked: "
	inapplicablePrefix = "inapplicable: "
	interruptedPrefix  = "not-tested: "
)

// Spec declares one Ginkgo spec witnessing exactly one catalog row. The row is its label and leads its text (as
// Kubernetes conformance names do); the body gets a W whose assertions all count against that row.
func Spec(e *Env, row, text string, body func(w *W)) bool {
	timeout := e.SpecTimeout
	if timeout == 0 {
		timeout = 30 * time.Second
	}
	var labels Labels
	if row != "" { // an empty row is left unlabelled, so the tree check rejects the spec by name
		labels = Label(row)
	}
	It("["+row+"] "+text, labels, func(sctx SpecContext) {
		if e.runCtx != nil && e.runCtx.Err() != nil {
			Skip(interruptedPrefix + InterruptedDetail) // the run was interrupted before this spec started
		}
		// The spec's context also ends when the run is interrupted, so its I/O stops at once.
		ctx, cancel := context.WithCancel(context.Context(sctx))
		if e.runCtx != nil {
			stop := context.AfterFunc(e.runCtx, cancel)
			DeferCleanup(func() { stop() })
		}
		DeferCleanup(cancel)
		w := &W{env: e, ctx: ctx, row: row}
		DeferCleanup(w.flush)
		// A self-check row is about the harness: it runs against the harness's own fixtures whatever the target
		// declares.
		if r, ok := e.Catalog.Row(row); ok && !r.SelfCheck() {
			w.requireApplicable(r.Document)
		}
		body(w)
	}, SpecTimeout(timeout))
	return true
}

// Env returns the run's environment.
func (w *W) Env() *Env { return w.env }

// Ctx is the spec's context: cancelled at the spec timeout.
func (w *W) Ctx() context.Context { return w.ctx }

// Row is the catalog row the spec witnesses.
func (w *W) Row() string { return w.row }

func (w *W) flush() {
	l := SpecLedger{Rows: map[string]*RowLedger{w.row: &w.ledger}, FailedRow: w.failed}
	l.Interrupted = w.env.runCtx != nil && w.env.runCtx.Err() != nil
	b, _ := json.Marshal(l)
	AddReportEntry(ledgerEntry, string(b), ReportEntryVisibilityNever)
}

func (w *W) cite(ex *a2a.Exchange) {
	if ex == nil || ex.ID == "" || slices.Contains(w.ledger.Exchanges, ex.ID) {
		return
	}
	w.ledger.Exchanges = append(w.ledger.Exchanges, ex.ID)
}

// Note records, for the row's detail, an input the spec did not get from the operator but derived (by probing the
// target), so the verdict says what it rests on.
func (w *W) Note(s string) {
	if s != "" && !slices.Contains(w.ledger.Notes, s) {
		w.ledger.Notes = append(w.ledger.Notes, s)
	}
}

// Check is the basic assertion: ok must hold for the spec's row. expected says what the row requires, observed
// what the target did, ex the exchange that shows it (may be nil for a static check of an already cited document).
func (w *W) Check(ok bool, expected, observed string, ex *a2a.Exchange) {
	w.ledger.Assertions++
	w.cite(ex)
	if !ok {
		w.fail(expected, observed, ex)
	}
}

// Expect applies a Gomega matcher as an assertion on the spec's row.
func (w *W) Expect(actual any, m types.GomegaMatcher, expected string, ex *a2a.Exchange) {
	ok, err := m.Match(actual)
	switch {
	case err != nil:
		w.Check(false, expected, "matcher error: "+err.Error(), ex)
	case !ok:
		w.Check(false, expected, strings.TrimSpace(m.FailureMessage(actual)), ex)
	default:
		w.Check(true, expected, "", ex)
	}
}

// Control records a positive control: the same call, made valid, succeeds. It is what allows Negative assertions.
// A failed control blocks the row ("positive control failed: …"), never fails it: the control shows the test could
// not be made, not that the target broke the row. When completing the valid call is itself what the row requires,
// the spec asserts it with Check instead.
func (w *W) Control(ok bool, what, observed string, ex *a2a.Exchange) {
	w.ledger.Controls++
	w.cite(ex)
	if !ok {
		w.blockIfUnreached(ex.Unreached())
		reason := fmt.Sprintf("positive control failed: %s — %s", what, clip(observed, 600))
		if ex != nil {
			reason += " (exchange " + ex.Summary() + ")"
		}
		w.Blocked(reason)
	}
	w.control = true
}

// Negative is an assertion that the target refuses or withholds something. It is only valid after a passing
// Control in the same spec, so a refusal for an unrelated reason never passes the row.
func (w *W) Negative(ok bool, expected, observed string, ex *a2a.Exchange) {
	if !w.control {
		w.defect(fmt.Sprintf("negative assertion on %s without a positive control before it", w.row))
	}
	w.Check(ok, expected, observed, ex)
}

// Blocked ends the spec: a prerequisite the target advertises (or the operator must supply) is missing.
func (w *W) Blocked(reason string) { Skip(blockedPrefix + reason) }

// Inapplicable ends the spec: the target does not declare the behaviour.
func (w *W) Inapplicable(reason string) { Skip(inapplicablePrefix + reason) }

// Absent ends the spec inapplicable on the operator's word: a conditional row whose feature the operator's
// configuration declares absent. The verdict quotes the declaration, so the report says who decided.
func (w *W) Absent(declaration string) {
	Skip(inapplicablePrefix + "the operator declares: " + declaration)
}

// Failf fails the row with a free observation (undecodable answers, errors). An error among a that is a transport
// failure (the call got no answer) blocks the row instead, naming the URL and the remedy: only an answer is a
// verdict.
func (w *W) Failf(ex *a2a.Exchange, expected, format string, a ...any) {
	w.cite(ex)
	w.BlockUnreached(ex, a...)
	w.Check(false, expected, fmt.Sprintf(format, a...), ex)
}

func (w *W) defect(msg string) {
	w.failed = "harness-defect"
	Fail("harness defect: "+msg, 2)
}

func (w *W) fail(expected, observed string, ex *a2a.Exchange) {
	w.blockIfUnreached(ex.Unreached())
	w.failed = w.row
	msg := FailureMessage(w.env.Catalog, w.row, expected, observed, ex)
	if w.env.Client != nil {
		msg = w.env.Client.Recorder().Redactor().String(msg) // a target may echo a credential into what is quoted
	}
	Fail(msg, 2)
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

// blockIfUnreached ends the spec blocked when u is a transport failure: the assertion had no answer to judge. The
// detail's first line (origin, cause, remedy) is shared by every row the same failure blocked, so summaries and
// the incomplete status name it once.
func (w *W) blockIfUnreached(u *a2a.Unreachable) {
	if u == nil {
		return
	}
	detail := u.Detail()
	if w.env.Client != nil {
		detail = w.env.Client.Recorder().Redactor().String(detail)
	}
	w.Blocked(detail)
}

// BlockUnreached ends the spec blocked when the exchange (or an error among errs) is a transport failure, with the
// detail every row that failure blocks shares; a spec that blocks on a prerequisite calls it first, so one cause
// reads as one.
func (w *W) BlockUnreached(ex *a2a.Exchange, errs ...any) {
	u := ex.Unreached()
	if u == nil {
		url := ""
		if ex != nil {
			url = ex.URL
		}
		u = a2a.UnreachedIn(url, errs...)
	}
	w.blockIfUnreached(u)
}
