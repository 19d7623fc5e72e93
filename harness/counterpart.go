package harness

import (
	"crypto/x509"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"slices"
	"sort"
	"sync"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/harness/target"
)

// A counterpart is a clean reference agent the harness runs for its own self-checks: rows about the harness's
// reference client (catalog witness reference-client) are witnessed against it and the harness's fixtures only,
// never against the target, so their result is the same whatever the target is. The engine knows no mock: a
// document's reference agent registers its starter here (from the package that has one), and a process that links
// none reports the self-checks needing it blocked.

// Counterpart is a started counterpart: where its card is, what its TLS certificate and card signatures chain to.
type Counterpart struct {
	CardURL     string
	RootCAs     *x509.CertPool
	TrustedKeys json.RawMessage // a JWK Set of the card-signing keys
}

// CounterpartStarter starts a document's counterpart; it lives as long as the process.
type CounterpartStarter func() (*Counterpart, error)

var counterparts = struct {
	sync.Mutex
	start   map[string]CounterpartStarter
	started map[string]*startedCounterpart
}{start: map[string]CounterpartStarter{}, started: map[string]*startedCounterpart{}}

type startedCounterpart struct {
	once sync.Once
	cp   *Counterpart
	err  error
}

// RegisterCounterpart registers the starter of doc's counterpart (at init, by the package of its reference agent).
func RegisterCounterpart(doc string, start CounterpartStarter) {
	counterparts.Lock()
	defer counterparts.Unlock()
	counterparts.start[doc] = start
}

// CounterpartOf returns doc's counterpart, started once per process on first use.
func CounterpartOf(doc string) (*Counterpart, error) {
	counterparts.Lock()
	start, ok := counterparts.start[doc]
	s := counterparts.started[doc]
	if ok && s == nil {
		s = &startedCounterpart{}
		counterparts.started[doc] = s
	}
	counterparts.Unlock()
	if !ok {
		return nil, fmt.Errorf("no %s counterpart is linked into this harness binary (a harness build defect, not the target's doing)", doc)
	}
	s.once.Do(func() { s.cp, s.err = start() })
	return s.cp, s.err
}

// CounterpartDocuments lists the documents with a registered counterpart.
func CounterpartDocuments() []string {
	counterparts.Lock()
	defer counterparts.Unlock()
	out := make([]string, 0, len(counterparts.start))
	for d := range counterparts.start {
		out = append(out, d)
	}
	sort.Strings(out)
	return out
}

// CounterpartClient is the client a self-check talks to a counterpart with: it trusts the counterpart's CA only,
// reaches loopback only (never the target, whatever the run's reach rule), and records into the run's transcript.
// One per run and counterpart.
func (e *Env) CounterpartClient(doc string, cp *Counterpart) *a2a.Client {
	type key struct{ doc string }
	return e.RunState(key{doc}, func() any {
		loop := func(u *url.URL) error {
			if ip := net.ParseIP(u.Hostname()); ip == nil || !ip.IsLoopback() {
				return fmt.Errorf("the %s counterpart lives on loopback only, not %s", doc, u.Hostname())
			}
			return nil
		}
		o := a2a.Options{RootCAs: cp.RootCAs, CheckURL: loop}
		if e.Client != nil {
			// Recorded in the run's transcript, but with a budget of its own on top of the target's: a target that
			// spends the run's bytes never starves the self-checks (issue #37: self-checks are never a target's
			// casualty). The counterpart is the harness's own loopback fixture, so this budget bounds little.
			o.Limits, o.Recorder = e.Client.Limits(), e.Client.Recorder()
			o.Limits.MaxRunBytes += counterpartBudget
		}
		// The counterpart is the harness's own fixture: the reach rule of a local target whose one agent is it.
		own := &target.Target{Kind: target.KindMock, Agents: map[string]string{doc: cp.CardURL}, RootCAs: cp.RootCAs}
		c := NewClient(ReachOf(own, nil), o)
		e.mu.Lock()
		e.clients = append(e.clients, c)
		e.mu.Unlock()
		return c
	}).(*a2a.Client)
}

// closeClients closes the idle connections of the clients the run made for peers that outlive it.
func (e *Env) closeClients() {
	e.mu.Lock()
	cs := e.clients
	e.clients = nil
	e.mu.Unlock()
	for _, c := range cs {
		c.CloseIdleConnections()
	}
}

// selfCheckSelection is the self-check rows of the selection whose documents have a suite: what still runs when
// the target answers nothing.
func selfCheckSelection(cat *catalog.Catalog, sel Selection, suites []Suite) []string {
	var out []string
	for _, r := range cat.Rows {
		if !r.SelfCheck() || !r.Witnessable() || !contains(sel.Documents, r.Document) || (len(sel.Rows) > 0 && !contains(sel.Rows, r.ID)) {
			continue
		}
		if slices.ContainsFunc(suites, func(s Suite) bool { return s.Document == r.Document }) {
			out = append(out, r.ID)
		}
	}
	return out
}

// blockTargetRows gives every row about the target the verdict of a run against a target that answers nothing
// (BlockedRun); the self-check rows keep the verdicts their specs earned.
func blockTargetRows(rows []RowVerdict, tgt *target.Target, o Options, reason string) error {
	blocked, err := BlockedRun(tgt, o, reason)
	if err != nil {
		return err
	}
	byID := map[string]RowVerdict{}
	for _, r := range blocked.Rows {
		byID[r.ID] = r
	}
	for i, r := range rows {
		if b, ok := byID[r.ID]; ok && !r.SelfCheck {
			rows[i] = b
		}
	}
	return nil
}

// counterpartBudget is what a counterpart's exchanges may add to the run's recorded bytes beyond the target's budget.
const counterpartBudget = 16 << 20
