package terms

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/onsi/ginkgo/v2"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/verify"
	vterms "github.com/extconf/extconf/harness/verify/terms"
)

// The §8 "update the card whenever the standing proposal changes" rows need a change during the run: the operator's
// change hook (role terms.change-hook; POST changes the standing proposal, POST ?revert=1 restores it). They run
// last in the suite and revert when they end, so the other specs see the agent as it started.
func registerChangeSpecs(s *state) {
	e := s.e

	harness.Spec(e, "TE-8.3a", "after the standing proposal changes the fresh card commits to the new document", func(w *harness.W) {
		ch := s.change(w, "TE-8.3a")
		for u, d := range ch.after {
			en, ok := ch.cardAfter.entry(u)
			w.Check(ok && en.Digest == d,
				fmt.Sprintf("the freshly fetched card's entry for %s commits to the changed document %s", u, d),
				fmt.Sprintf("the card's entry digest is %q (before the change it was %q)", en.Digest, ch.before[u]), ch.cardAfter.ex)
		}
	})

	harness.Spec(e, "TE-8.3b", "after the standing proposal changes the signed card is re-signed", func(w *harness.W) {
		s.declaration(w, "TE-8.3b")
		if len(e.Target.Config.TrustedKeys) == 0 {
			w.Blocked("no trustedKeys in the target configuration: the JWK Set that verifies the card's signatures (A2A §8.4)")
		}
		var keys jose.JSONWebKeySet
		if err := json.Unmarshal(e.Target.Config.TrustedKeys, &keys); err != nil {
			w.Blocked("trustedKeys is not a JWK Set: " + err.Error())
		}
		ch := s.change(w, "TE-8.3b")
		if !ch.cardBefore.signed {
			w.Inapplicable("the card carries no signatures: the re-signing rule applies only where the card is signed")
		}
		_, err := verify.CardSignature(ch.cardBefore.raw, &keys)
		w.Control(err == nil, "the card's signatures verify before the change", errOrOK(err), ch.cardBefore.ex)
		_, err = verify.CardSignature(ch.cardAfter.raw, &keys)
		w.Check(err == nil, "the card served after the change carries signatures that verify over it (A2A §8.4)", errOrOK(err), ch.cardAfter.ex)
	})
}

type cardState struct {
	raw     []byte
	ex      *a2a.Exchange
	signed  bool
	entries []vterms.Entry
}

func (c cardState) entry(u string) (vterms.Entry, bool) {
	for _, en := range c.entries {
		if en.URL == u {
			return en, true
		}
	}
	return vterms.Entry{}, false
}

type changed struct {
	cardBefore, cardAfter cardState
	before, after         map[string]string // url → digest of the served document, for documents the change touched
}

// freshCard fetches the card bypassing every cache (§8: cards get cached).
func (s *state) freshCard(w *harness.W, row, note string) cardState {
	u, _ := s.e.Target.CardURL(Role)
	card, ex, err := s.e.Client.FetchCard(w.Ctx(), u, a2a.Call{Note: note, Header: http.Header{"Cache-Control": {"no-cache"}}})
	if err != nil {
		w.Failf(ex, "the card can be fetched", "%v", err)
	}
	cs := cardState{raw: ex.ResponseBody, ex: ex}
	var top map[string]json.RawMessage
	_ = json.Unmarshal(ex.ResponseBody, &top)
	var sigs []json.RawMessage
	_ = json.Unmarshal(top["signatures"], &sigs)
	cs.signed = len(sigs) > 0
	cs.entries, err = vterms.Entries(card)
	switch {
	case errors.Is(err, vterms.ErrNotDeclared):
		w.Inapplicable("the card does not declare " + vterms.URI)
	case err != nil || len(cs.entries) == 0:
		w.Blocked(fmt.Sprintf("the terms declaration lists no proposals to change (see TE-3.2a/b): %v", err))
	}
	return cs
}

// servedDigests fetches every entry's document afresh.
func (s *state) servedDigests(w *harness.W, entries []vterms.Entry) map[string]string {
	out := map[string]string{}
	for _, en := range entries {
		body, _, err := vterms.FetchProposal(w.Ctx(), s.proposalClient(), en.URL, a2a.Call{Note: "terms proposal (change rows) " + en.URL})
		if err != nil {
			w.Blocked(fmt.Sprintf("%s could not be fetched (see TE-3.3d): %v", en.URL, err))
		}
		d, err := vterms.ProposalDigest(body)
		if err != nil {
			w.Blocked(fmt.Sprintf("%s does not canonicalize: %v", en.URL, err))
		}
		out[en.URL] = d
	}
	return out
}

// change fetches the card and documents, invokes the change hook (reverted when the spec ends), and fetches both
// again. The positive control: some served document changed.
func (s *state) change(w *harness.W, row string) *changed {
	s.declaration(w, row) // a card without the extension makes the row inapplicable before any operator input is asked for
	hook, ok := s.e.Target.CardURL(RoleChangeHook)
	if !ok {
		w.Blocked("no change hook: set agents." + RoleChangeHook + " in the target configuration to a URL that, on POST, publishes a changed standing proposal (and on POST ?revert=1 restores it)")
	}
	ch := &changed{cardBefore: s.freshCard(w, row, "card before the standing proposal changes")}
	before := s.servedDigests(w, ch.cardBefore.entries)
	for _, en := range ch.cardBefore.entries {
		if en.Digest != before[en.URL] {
			w.Blocked(fmt.Sprintf("before any change the card's entry for %s commits to %q, not to the served document %s (see TE-3.3b/3.3e)", en.URL, en.Digest, before[en.URL]))
		}
	}
	ex, err := s.e.Client.HTTP(w.Ctx(), http.MethodPost, hook, []byte("{}"), a2a.Call{Note: "change hook: publish a changed standing proposal"})
	w.Control(err == nil && ex.Status/100 == 2, "the change hook answers 2xx", fmt.Sprintf("%v status %d", err, statusOf(ex)), ex)
	ginkgo.DeferCleanup(func() {
		sep := "?"
		if strings.Contains(hook, "?") {
			sep = "&"
		}
		// The spec's context may be done by now; the revert still has to happen.
		ctx, cancel := context.WithTimeout(context.Background(), s.e.Client.Limits().CallTimeout)
		defer cancel()
		_, _ = s.e.Client.HTTP(ctx, http.MethodPost, hook+sep+"revert=1", []byte("{}"), a2a.Call{Note: "change hook: revert"})
	})
	after := s.servedDigests(w, ch.cardBefore.entries)
	ch.before, ch.after = map[string]string{}, map[string]string{}
	for u, d := range after {
		if before[u] != d {
			ch.before[u], ch.after[u] = before[u], d
		}
	}
	w.Control(len(ch.after) > 0, "after the hook, a document served at a listed url changed", fmt.Sprintf("%d changed", len(ch.after)), ex)
	ch.cardAfter = s.freshCard(w, row, "card after the standing proposal changed")
	return ch
}

func statusOf(ex *a2a.Exchange) int {
	if ex == nil {
		return 0
	}
	return ex.Status
}
