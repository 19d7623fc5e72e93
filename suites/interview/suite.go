package interview

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	jose "github.com/go-jose/go-jose/v4"
	. "github.com/onsi/ginkgo/v2"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/harness/verify"
	vinterview "github.com/extconf/extconf/refclients/interview"
)

// Roles the suite reads. Only the main one is needed; the others widen what can be shown.
const (
	roleMain    = "interview"
	roleNoTerms = "interview.noterms" // an agent declaring the interview but not the terms extension
	roleChurn   = "interview.churn"   // an agent whose card changes between a verifier's fetch and its calls
)

const termsURI = "https://agentsow.com/extensions/a2a-terms/v1"

// Suite is the interview suite.
func Suite() harness.Suite {
	return harness.Suite{Document: "interview", Applicable: applicable, Register: func(e *harness.Env) {
		registerAgentSpecs(e)
		registerContentSpecs(e)
		registerClientSpecs(e)
	}}
}

// applicable reads the main card through the reference client's own applicability step, so a card without the
// extension is "not implemented", nothing more (§9 rule 2).
func applicable(ctx context.Context, e *harness.Env) (bool, string) {
	url, ok := e.Target.CardURL(roleMain)
	if !ok {
		return false, "the target has no agent for role " + roleMain
	}
	card, _, err := e.Client.FetchCard(ctx, url, a2a.Call{Note: "interview applicability: the card"})
	if err != nil {
		return true, "" // the specs fail on the fetch themselves
	}
	a := vinterview.Applies(card, e.Sabotage)
	return a.Declared, a.Reason
}

// session is one spec's view of an agent: its card, where interview calls go, and who it is.
type session struct {
	w      *harness.W
	e      *harness.Env
	row    string
	role   string
	url    string
	card   *a2a.AgentCard
	raw    []byte
	cardEx *a2a.Exchange
	ep     vinterview.Endpoint
	skills []string
	c      *a2a.Client         // the counterpart's client for a self-check (nil: the run's)
	keys   *jose.JSONWebKeySet // the counterpart's card keys for a self-check (nil: the operator's)
}

// open reads the card of role (the main one is fetched once per run) and the interview endpoint. A missing extra
// role makes the spec inapplicable: the row is then witnessed on the main agent only.
func open(w *harness.W, row, role string) *session {
	e := w.Env()
	url, ok := e.Target.CardURL(role)
	if !ok {
		w.Inapplicable(fmt.Sprintf("the target provides no agent in role %q (set agents.%s in the target configuration to widen this check)", role, role))
	}
	s := &session{w: w, e: e, row: row, role: role, url: url}
	s.card, s.raw, s.cardEx = w.Card(role)
	if role != roleMain {
		if _, ok := s.card.Extension(vinterview.URI); !ok {
			w.Inapplicable(fmt.Sprintf("the agent in role %q does not declare the interview extension", role))
		}
	}
	ep, err := endpoint(s.card, e.Target.Config)
	if err != nil {
		w.Blocked(err.Error())
	}
	s.ep = ep
	s.skills = vinterview.SkillIDs(s.card)
	return s
}

// ask makes one interview call; admission and rate limits block the spec, they never pass or fail it (§10, §11).
func (s *session) ask(method string, params map[string]any, activate bool, note string) *vinterview.Reply {
	r := vinterview.Ask(s.w.Ctx(), s.e.Client, s.ep, method, params, activate, s.row+": "+note)
	s.admitted(r.Exchange)
	return r
}

// admitted blocks the spec when the agent would not admit the call (§10, §11: admission is the deployment's).
func (s *session) admitted(ex *a2a.Exchange) {
	if ex == nil {
		return
	}
	switch ex.Status {
	case http.StatusUnauthorized, http.StatusForbidden:
		s.w.Blocked(fmt.Sprintf("interview calls need admission (HTTP %d, %s); name a credential the agent admits in documents.interview.principal", ex.Status, ex.Summary()))
	case http.StatusTooManyRequests:
		s.w.Blocked("the agent rate-limits interview calls (HTTP 429, " + ex.Summary() + "); run again later or admit the harness")
	}
}

// answer asks under activation and records the positive control that the call is answered.
func (s *session) answer(method string, params map[string]any, note string) *vinterview.Reply {
	r := s.ask(method, params, true, note)
	ok := r.Answer != nil
	s.w.Control(ok, method+" answers under activation with an answer object (question, projections)", r.Observed(), r.Exchange)
	return r
}

// five asks the five methods under activation, each a positive control.
func (s *session) five(note string) []*vinterview.Reply {
	var out []*vinterview.Reply
	for _, m := range vinterview.Methods {
		out = append(out, s.answer(m, nil, note+": "+m))
	}
	return out
}

// declared fetches the card afresh (never the run's cached copy): the diff is against the card as served now.
func (s *session) declared(note string) *vinterview.Declared {
	card, ex, err := s.e.Client.FetchCard(s.w.Ctx(), s.url, a2a.Call{Note: s.row + ": " + note})
	if err != nil {
		s.w.Failf(ex, "the card can be fetched afresh for the diff", "%v", err)
	}
	d, err := vinterview.NewDeclared(s.url, ex.ResponseBody, card, ex)
	if d != nil {
		d.TrustedKeys = trustedKeys(s.e)
	}
	if err != nil {
		s.w.Failf(ex, "the card decodes as JSON", "%v", err)
	}
	return d
}

// persistent runs ask and diffs its answers (§7); on a conflict of the given kinds it re-fetches the card and
// re-asks once, and returns what survives (§7 rule 3: only a persistent conflict is non-conformance).
func (s *session) persistent(ask func(round int) []*vinterview.Reply, kinds ...string) ([]*vinterview.Reply, []vinterview.Conflict, *vinterview.Declared) {
	var replies []*vinterview.Reply
	var cs []vinterview.Conflict
	var d *vinterview.Declared
	for round := 1; round <= 2; round++ {
		note := "the declared card"
		if round == 2 {
			note = "re-fetch of the card after a conflict (§7 rule 3)"
		}
		d = s.declared(note)
		replies = ask(round)
		cs = nil
		for _, c := range vinterview.Diff(s.w.Ctx(), s.e.Client, d, replies, s.e.Sabotage) {
			if c.Unreached != nil {
				s.w.BlockUnreached(nil, c.Unreached) // the declared source got no answer: nothing to diff
			}
			for _, k := range kinds {
				if c.Kind == k {
					cs = append(cs, c)
				}
			}
		}
		if len(cs) == 0 || vinterview.ChurnAsPersistent(s.e.Sabotage) {
			break
		}
	}
	return replies, cs, d
}

// procedure runs the interview of §8 against the session's agent, recorded by runBy.
func (s *session) procedure(runBy vinterview.RunBy) *vinterview.Report {
	rep := vinterview.Run(s.w.Ctx(), s.client(), s.url, vinterview.Options{
		RunBy: runBy, Keys: s.trustedKeys(), Header: s.ep.Header, Set: s.e.Sabotage})
	var b bytes.Buffer
	rep.Render(&b)
	AddReportEntry("interview procedure ("+s.row+")", b.String(), ReportEntryVisibilityFailureOrVerbose)
	for _, st := range rep.Steps {
		for _, ex := range st.Exchanges {
			s.admitted(ex)
		}
	}
	return rep
}

// blockOnKeys blocks a spec whose card is signed with a key the harness was not given (and not published on the
// card's origin): that is missing operator input, not a fault of the agent.
func (s *session) blockOnKeys(detail string) {
	if strings.Contains(detail, verify.StepUnknownKID) {
		s.w.Blocked("the card's signature names a key the harness does not have (" + detail + "); supply trustedKeys (a JWK Set) in the target configuration")
	}
	if strings.Contains(detail, verify.StepUnsupportedAlg) {
		s.w.Blocked("the card is signed with a JWS algorithm the harness cannot verify (" + detail + "): A2A §8.4 names no allow-list, so this is no failure of the agent")
	}
}

func trustedKeys(e *harness.Env) *jose.JSONWebKeySet {
	if len(e.Target.Config.TrustedKeys) == 0 {
		return nil
	}
	var ks jose.JSONWebKeySet
	if json.Unmarshal(e.Target.Config.TrustedKeys, &ks) != nil {
		return nil
	}
	return &ks
}

func runBy(e *harness.Env) vinterview.RunBy {
	return vinterview.RunBy{Name: e.Runner.Name, Tier: e.Runner.Tier}
}

// jcsOf is the JCS form of a result (or a marker for an error), for byte-for-byte comparisons.
func jcsOf(r *vinterview.Reply) string {
	switch {
	case r.Err != nil:
		return "call failed: " + r.Err.Error()
	case r.RPCError != nil:
		return fmt.Sprintf("JSON-RPC error %d", r.RPCError.Code)
	}
	b, err := verify.CanonicalJSON(r.Result)
	if err != nil {
		return "not JSON: " + string(r.Result)
	}
	return string(b)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// endpoint is where the run sends a card's interview and task calls: its JSON-RPC interface, with principal A's
// credential when the card requires authentication; the error is why the run cannot call it.
func endpoint(card *a2a.AgentCard, cfg target.Config) (vinterview.Endpoint, error) {
	ep, err := vinterview.EndpointOf(card)
	if err != nil {
		return ep, err
	}
	if len(card.SecurityRequirements) > 0 {
		p, ok := cfg.PrincipalOf(docID, "A")
		if !ok {
			return ep, errors.New("the card requires authentication (securityRequirements); name a credential in documents.interview.principal")
		}
		ep.Header = http.Header{p.Header: []string{p.Value}}
	}
	return ep, nil
}
