package harness

import (
	"context"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/extensions/globals"
	"github.com/onsi/ginkgo/v2/formatter"
	gtypes "github.com/onsi/ginkgo/v2/types"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/harness/target"
)

// Options select and shape one run.
type Options struct {
	Suites                  []Suite     // the suites to run (cmd passes suites.All(): every document's suites)
	Documents               []string    // document ids to run; empty: every suite given
	Rows                    []string    // row ids to run; empty: every row of the selected documents
	Sabotage                Faults      // client-side toggles for the reference client procedures; nil: none
	Runner                  Runner      // who ran it; Tier defaults to self
	Seed                    int64       // Ginkgo random seed; 0: time-based
	Progress                io.Writer   // Ginkgo's own console output; nil: discarded
	JSONReport, JUnitReport string      // Ginkgo's reporters, when set
	Limits                  *a2a.Limits // client limits; nil: defaults
	SpecTimeout             time.Duration
	// OnSpec, when set, is told when each spec that runs starts and ends (the CLI's progress display).
	OnSpec func(SpecEvent)
	// Strict: advisory (SHOULD-level) findings fail the run like a requirement's (runsuite run --strict).
	Strict bool
	// Shared, when set, makes this run one part of a run split across processes (runsuite run --jobs): its
	// exchanges take their Seq from the shared sequence and its redaction markers the shared key.
	Shared *Shared
}

// Shared is what the parts of one run split across processes have in common.
type Shared struct {
	NextSeq      func() int
	RedactionKey string // hex; never written
	// Sink receives each transcript line as it is recorded (a2a.Recorder.SetSink); nil: none.
	Sink io.Writer
}

// SpecEvent is one spec starting (Done false) or ending (Done true): its document, its text and its row labels.
type SpecEvent struct {
	Document string
	Spec     string
	Rows     []string
	Done     bool
}

// Result is what a run produced.
type Result struct {
	Rows      []RowVerdict
	Exchanges []*a2a.Exchange
	Report    gtypes.Report
	Seed      int64
	Selection Selection
	Started   time.Time
	Finished  time.Time
	Cards     map[string]CardSeen // role → card as fetched
	Env       *Env
	// Interrupted: the run was stopped (signal or cancelled context) before every spec ran; the rows left
	// unfinished read not-tested with detail InterruptedDetail.
	Interrupted bool
}

// Selection is what the user asked for.
type Selection struct {
	Documents []string `json:"documents"`
	Rows      []string `json:"rows,omitempty"`
	// Strict: advisory (SHOULD-level) findings count against the target's status (runsuite run --strict).
	Strict bool `json:"strict,omitempty"`
}

// CardSeen is a card fetched during the run.
type CardSeen struct {
	URL        string   `json:"url"`
	SHA256     string   `json:"sha256"`
	Exchange   string   `json:"exchange"`
	Extensions []string `json:"extensions,omitempty"`
	Provider   string   `json:"provider,omitempty"`
	Name       string   `json:"name,omitempty"` // the card's name: what reports call the agent
}

// SeedOf is the Ginkgo random seed a run uses: seed, or a time-based one when it is 0.
func SeedOf(seed int64) int64 {
	if seed == 0 {
		return time.Now().UnixNano() % 1_000_000
	}
	return seed
}

// Ginkgo keeps its spec tree in process globals; runs are serialised and the tree is rebuilt per run.
var runMu sync.Mutex

// Run executes the selected suites against tgt in this process and returns the row verdicts and the transcript.
// It can be called many times in one process (globals.Reset between runs), which keeps falsification fast.
func Run(ctx context.Context, tgt *target.Target, o Options) (*Result, error) {
	cat, err := catalog.Load()
	if err != nil {
		return nil, err
	}
	runMu.Lock()
	defer runMu.Unlock()

	limits := a2a.DefaultLimits()
	if o.Limits != nil {
		limits = *o.Limits
	}
	rec := a2a.NewRecorder()
	x := a2a.NewRedactor(configuredSecrets(tgt.Config)...) // nothing secret is written (transcript, reports)
	if o.Shared != nil {
		x.SetKey(o.Shared.RedactionKey)
		rec.SetSeqSource(o.Shared.NextSeq)
		if o.Shared.Sink != nil {
			rec.SetSink(o.Shared.Sink)
		}
	}
	rec.SetRedactor(x)
	rch := newReach(tgt, o.Suites)
	client := NewClient(rch, a2a.Options{Limits: limits, RootCAs: tgt.RootCAs, Recorder: rec})
	if o.Runner.Tier == "" {
		o.Runner.Tier = "self"
	}
	env := &Env{Target: tgt, Catalog: cat, Client: client, Sabotage: o.Sabotage, Runner: o.Runner,
		cards: map[string]*cardFetch{}, applicable: map[string]*applicability{}, suites: map[string]Suite{},
		SpecTimeout: o.SpecTimeout, reach: rch, runCtx: ctx}

	sel := Selection{Documents: o.Documents, Rows: o.Rows, Strict: o.Strict}
	var chosen []Suite
	for _, s := range o.Suites {
		if len(o.Documents) == 0 || contains(o.Documents, s.Document) {
			chosen = append(chosen, s)
			// One applicability rule per document: the first suite that states one.
			if prev, ok := env.suites[s.Document]; !ok || prev.Applicable == nil {
				env.suites[s.Document] = s
			}
		}
	}
	if len(sel.Documents) == 0 {
		// Everything was asked for: a document without a suite reads not-tested, never skipped.
		for _, d := range catalog.Documents {
			sel.Documents = append(sel.Documents, d.ID)
		}
	}
	for _, id := range o.Rows {
		if _, ok := cat.Row(id); !ok {
			return nil, fmt.Errorf("unknown row %q (see `runsuite catalog`)", id)
		}
	}
	labelRows := o.Rows // the rows whose specs run (all selected when empty)
	dead := tgt.Blocked // a target that could not be started (no container engine)
	if dead == "" {
		dead = env.unreachable(ctx)
	}
	if dead != "" {
		// A target that answers nothing is one finding, not hundreds of row failures after as many timeouts. The
		// self-checks still run: they never depend on the target.
		labelRows = selfCheckSelection(cat, sel, o.Suites)
		if len(labelRows) == 0 {
			res, err := BlockedRun(tgt, o, dead)
			if err == nil {
				res.Env, res.Exchanges = env, rec.All()
				err = redactResult(res, x)
			}
			return res, err
		}
	}

	globals.Reset()
	// Container bodies run while Ginkgo builds the tree inside RunSpecs, so the check stays installed until the
	// run ends; a rejected spec's body is replaced by a failure and the run returns an error.
	var defects []string
	undo := AddTreeConstructionNodeArgsTransformer(func(nt gtypes.NodeType, _ Offset, text string, args []any) (string, []any, []error) {
		if nt != gtypes.NodeTypeIt {
			return text, args, nil
		}
		msg := checkSpecLabels(cat, text, args)
		if msg == "" {
			return text, args, nil
		}
		defects = append(defects, msg)
		for i, a := range args {
			switch a.(type) {
			case func(), func(SpecContext), func(context.Context):
				args[i] = func(SpecContext) { Fail("harness defect: " + msg) }
			}
		}
		return text, args, nil
	})
	defer undo()
	for _, s := range chosen {
		s := s
		Describe(s.Document, func() { s.Register(env) })
	}

	var report gtypes.Report
	var stopInterrupts func()
	ReportAfterSuite("extconf verdicts", func(sc SpecContext, r Report) { report, stopInterrupts = r, stopper(sc) })
	if o.OnSpec != nil {
		event := func(r SpecReport, done bool) {
			if r.State.Is(gtypes.SpecStateSkipped|gtypes.SpecStatePending) || len(r.ContainerHierarchyTexts) == 0 {
				return
			}
			o.OnSpec(SpecEvent{Document: r.ContainerHierarchyTexts[0], Spec: r.LeafNodeText, Rows: r.Labels(), Done: done})
		}
		ReportBeforeEach(func(r SpecReport) { event(r, false) })
		ReportAfterEach(func(r SpecReport) { event(r, true) })
	}

	// Ginkgo refuses `go test -count=N` because it cannot rerun one tree; every Run builds a fresh tree, so the
	// guard does not apply here. Show it count=1 for the duration of the run (the testing loop rereads its flag).
	if f := flag.Lookup("test.count"); f != nil && f.Value.String() != "1" {
		prev := f.Value.String()
		_ = f.Value.Set("1")
		defer func() { _ = f.Value.Set(prev) }()
	}
	suiteCfg, repCfg := GinkgoConfiguration()
	suiteCfg.RandomSeed = SeedOf(o.Seed)
	suiteCfg.FailFast = false
	suiteCfg.LabelFilter = ""
	suiteCfg.FocusStrings, suiteCfg.SkipStrings = nil, nil
	if len(labelRows) > 0 {
		suiteCfg.LabelFilter = strings.Join(labelRows, " || ")
	}
	repCfg = gtypes.ReporterConfig{Succinct: true, SilenceSkips: true, NoColor: true,
		JSONReport: o.JSONReport, JUnitReport: o.JUnitReport}
	prevOut := formatter.ColorableStdOut
	if o.Progress != nil {
		formatter.ColorableStdOut = o.Progress
	} else {
		formatter.ColorableStdOut = io.Discard
	}
	defer func() { formatter.ColorableStdOut = prevOut }()

	started := time.Now()
	if ctx.Err() == nil {
		RunSpecs(&quietT{}, "extconf", suiteCfg, repCfg)
	}
	finished := time.Now()
	env.closeClients()
	if stopInterrupts != nil {
		stopInterrupts() // Ginkgo leaves its per-run interrupt goroutine running otherwise
	}
	globals.Reset()
	if len(defects) > 0 {
		return nil, fmt.Errorf("suite tree rejected: %s", strings.Join(defects, "; "))
	}

	res := &Result{Report: report, Seed: suiteCfg.RandomSeed, Selection: sel, Started: started, Finished: finished,
		Exchanges: rec.All(), Env: env, Cards: map[string]CardSeen{}}
	res.Interrupted = ctx.Err() != nil || slices.ContainsFunc(report.SpecialSuiteFailureReasons, func(r string) bool {
		return strings.Contains(strings.ToLower(r), "interrupt")
	})
	res.Rows = Verdicts(cat, report, sel, env)
	if dead != "" {
		if err := blockTargetRows(res.Rows, tgt, o, dead); err != nil {
			return nil, err
		}
	}
	if res.Interrupted {
		markInterrupted(cat, res.Rows, sel)
	}
	for role, u := range tgt.Agents {
		if f, ok := env.cards[u]; ok && f.ex != nil && f.err == nil {
			seen := CardSeen{URL: u, SHA256: sha256Hex(f.raw), Exchange: f.ex.ID, Name: f.card.Name}
			for _, x := range f.card.Capabilities.Extensions {
				seen.Extensions = append(seen.Extensions, x.URI)
			}
			if f.card.Provider != nil {
				seen.Provider = f.card.Provider.Organization
			}
			res.Cards[role] = seen
		}
	}
	if err := redactResult(res, x, o.JSONReport, o.JUnitReport); err != nil {
		return nil, err
	}
	return res, nil
}

// checkSpecLabels rejects a spec with no row label, an unknown row, or a row no outside party can witness.
func checkSpecLabels(cat *catalog.Catalog, text string, args []any) string {
	var rows []string
	for _, a := range args {
		if l, ok := a.(Labels); ok {
			rows = append(rows, l...)
		}
	}
	if len(rows) == 0 {
		return fmt.Sprintf("spec %q carries no row label", text)
	}
	for _, id := range rows {
		r, ok := cat.Row(id)
		if !ok {
			return fmt.Sprintf("spec %q names unknown row %q", text, id)
		}
		if !r.Witnessable() {
			return fmt.Sprintf("spec %q names %s, which the catalog marks unwitnessable", text, id)
		}
	}
	return ""
}

func (e *Env) suite(doc string) (Suite, bool) {
	s, ok := e.suites[doc]
	return s, ok
}

// requireApplicable ends the spec as inapplicable when the target does not declare the document.
func (w *W) requireApplicable(doc string) {
	e := w.env
	e.mu.Lock()
	a, ok := e.applicable[doc]
	e.mu.Unlock()
	if !ok {
		a = &applicability{}
		s, _ := e.suite(doc)
		if s.Applicable != nil {
			a.ok, a.reason = s.Applicable(w.Ctx(), e)
		} else {
			a.ok, a.reason = w.declares(doc)
		}
		e.mu.Lock()
		e.applicable[doc] = a
		e.mu.Unlock()
	}
	if !a.ok {
		w.Inapplicable(a.reason)
	}
}

// declares is the default applicability: the card of the document's role declares its extension URI. A card that
// cannot be fetched is not "inapplicable": the document's rows then fail on the fetch, never pass.
func (w *W) declares(doc string) (bool, string) {
	d, _ := catalog.DocumentByID(doc)
	url, ok := w.env.Target.CardURL(doc)
	if !ok {
		return false, "the target has no agent for " + doc
	}
	card, _, ex, err := w.env.fetchCard(w.Ctx(), url, doc)
	if err != nil {
		return true, "" // the specs themselves fail on the fetch
	}
	if _, ok := card.Extension(d.URI); !ok {
		return false, fmt.Sprintf("the card at %s (%s) does not declare %s in capabilities.extensions", url, ex.ID, d.URI)
	}
	return true, ""
}

func (e *Env) fetchCard(ctx context.Context, url, role string) (*a2a.AgentCard, []byte, *a2a.Exchange, error) {
	e.mu.Lock()
	f, ok := e.cards[url]
	e.mu.Unlock()
	if !ok {
		card, ex, err := e.Client.FetchCard(ctx, url, a2a.Call{Note: "agent card for role " + role})
		f = &cardFetch{card: card, ex: ex, err: withTLSRemedy(err)}
		if ex != nil {
			f.raw = ex.ResponseBody
		}
		e.mu.Lock()
		e.cards[url] = f
		e.mu.Unlock()
	}
	return f.card, f.raw, f.ex, f.err
}

// quietT satisfies GinkgoTestingT outside `go test`; the verdicts, not t, carry the outcome.
type quietT struct{ failed bool }

func (t *quietT) Fail() { t.failed = true }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// configuredSecrets are the credential values of the target configuration: redacted wherever they would be written.
func configuredSecrets(cfg target.Config) []string {
	var out []string
	for _, p := range cfg.Principals {
		out = append(out, p.Value)
	}
	for _, c := range cfg.Credentials {
		if v, err := c.Value.Resolve(); err == nil {
			out = append(out, v)
		}
	}
	if cfg.ActingFor != nil && cfg.ActingFor.Value != "" {
		out = append(out, cfg.ActingFor.Value)
	}
	return out
}

// withTLSRemedy adds the remedy to a certificate the harness does not trust: a target behind a private CA names
// that CA's PEM file in the target configuration's caFile member.
func withTLSRemedy(err error) error {
	var ua x509.UnknownAuthorityError
	if err == nil || !(errors.As(err, &ua) || strings.Contains(err.Error(), "certificate signed by unknown authority")) {
		return err
	}
	return fmt.Errorf("%w (the target's TLS certificate is not issued by a CA the harness trusts: if it comes from a private CA, put that CA's PEM file in the caFile member of the target configuration, --config FILE)", err)
}

// unreachable probes a remote target's card URLs once before any spec runs: when none of them gives any response
// (refused, unreachable, timed out, a certificate from an authority the operator did not configure), it returns
// the one reason every selected row is blocked for.
func (e *Env) unreachable(ctx context.Context) string {
	if e.Target.Kind != target.KindURL && e.Target.Kind != target.KindContainer {
		return ""
	}
	var reasons []string
	seen := map[string]bool{}
	for _, role := range sortedKeys(e.Target.Agents) {
		u := e.Target.Agents[role]
		if seen[u] || !(strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://")) {
			continue
		}
		seen[u] = true
		_, _, ex, err := e.fetchCard(ctx, u, role)
		if err != nil && (errors.Is(err, a2a.ErrAddressRefused) || errors.Is(err, a2a.ErrURLRefused)) {
			// The reach rule refuses the target's own card (e.g. a card on this host's non-loopback address, which a
			// remote target may not reach): nothing can be asked of it, which blocks every row; it fails none.
			reasons = append(reasons, fmt.Sprintf("%s: the harness's reach rule refuses it: %v (an agent on this host is named by 127.0.0.1, [::1] or localhost)", u, err))
			continue
		}
		if err == nil || (ex != nil && ex.Status != 0) {
			return "" // something answered: the specs judge what
		}
		un := a2a.Unreached(u, 0, err)
		if un == nil && !a2a.NoResponse(err) {
			return ""
		}
		if un != nil && un.Remedy == a2a.RemedyCAFile {
			reasons = append(reasons, fmt.Sprintf("%s: %s (%s)", u, un.Cause, un.Remedy)) // the remedy, not the x509 text
			continue
		}
		reasons = append(reasons, fmt.Sprintf("%s: %v", u, err))
	}
	if len(reasons) == 0 {
		return ""
	}
	return "the target answered nothing (or may not be reached): " + strings.Join(reasons, "; ") +
		" (is it running, and is the URL right? a TLS target behind a private CA needs caFile in the target configuration)"
}
