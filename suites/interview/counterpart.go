package interview

import (
	"encoding/json"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	vinterview "github.com/extconf/extconf/refclients/interview"
)

// openCounterpart is open for the self-check rows (§8–§9 bind the harness's verifier, not the agent): the session
// is on the harness's own interview counterpart, never the target, so these rows read the same against any target
// (one declaring nothing, one with an HTTP+JSON interface only) as against the reference agents.
func openCounterpart(w *harness.W, row string) *session {
	e := w.Env()
	cp, err := harness.CounterpartOf(docID)
	if err != nil {
		w.Blocked("the harness's interview counterpart is not available: " + err.Error())
	}
	c := e.CounterpartClient(docID, cp)
	s := &session{w: w, e: e, row: row, role: roleMain, url: cp.CardURL, c: c}
	var ks jose.JSONWebKeySet
	if json.Unmarshal(cp.TrustedKeys, &ks) == nil {
		s.keys = &ks
	}
	card, ex, err := c.FetchCard(w.Ctx(), cp.CardURL, a2a.Call{Note: row + ": the card of the harness's interview counterpart"})
	if err != nil {
		w.Blocked("the card of the harness's interview counterpart could not be read: " + err.Error())
	}
	s.card, s.raw, s.cardEx = card, ex.ResponseBody, ex
	ep, err := vinterview.EndpointOf(card)
	if err != nil {
		w.Blocked("the harness's interview counterpart: " + err.Error())
	}
	s.ep, s.skills = ep, vinterview.SkillIDs(card)
	return s
}

// client is the session's client: the counterpart's for a self-check, else the run's.
func (s *session) client() *a2a.Client {
	if s.c != nil {
		return s.c
	}
	return s.e.Client
}

// trustedKeys are the card-signing keys the session's verifier trusts.
func (s *session) trustedKeys() *jose.JSONWebKeySet {
	if s.keys != nil {
		return s.keys
	}
	return trustedKeys(s.e)
}
