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
	vterms "github.com/extconf/extconf/refclients/terms"
)

// The §8 "update the card whenever the standing proposal changes" rows need a change during the run: the operator's
// change hook (role terms.change-hook; POST changes the standing proposal, POST ?revert=1 restores it). They run
// last in the suite and revert when they end, so the other specs see the agent as it started.
func registerChangeSpecs(s *state) {
	e := s.e

	harness.Spec(e, "TE-8.3a", "after the standing proposal changes the fresh card commits to the new document", func(w *harness.W) {
		ch := s.change(w, "TE-8.3a")
		// Every entry of the fresh card must commit to what its url serves now. A provider may publish the changed
		// proposal at a new (versioned) url, the practice §8's SHOULD favours: then the old url may keep serving the
		// withdrawn bytes and the fresh card simply lists the new url.
		for _, en := range ch.cardAfter.entries {
			d := ch.served[en.URL]
			w.Check(en.Digest == d,
				fmt.Sprintf("the freshly fetched card's entry for %s commits to the document served there now, %s", en.URL, d),
				fmt.Sprintf("the card's entry digest is %q (before the change the card listed %s)", en.Digest, entrySummary(ch.cardBefore.entries)), ch.cardAfter.ex)
		}
		// A url the old card listed that now serves a changed document, and that the fresh card dropped, is a change
		// the card did not follow only if nothing else took its place; the check above covers every listed url.
	})

	harness.Spec(e, "TE-8.3c", "after the standing proposal changes the old urls keep serving the withdrawn bytes (SHOULD)", func(w *harness.W) {
		ch := s.change(w, "TE-8.3c")
		fresh := map[string]string{}
		for _, en := range ch.cardAfter.entries {
			fresh[en.URL] = en.Digest
		}
		withdrawn := 0
		for _, en := range ch.cardBefore.entries {
			if fresh[en.URL] == en.Digest {
				continue // still listed with the same commitment: not withdrawn
			}
			withdrawn++
			w.Check(ch.served[en.URL] == en.Digest,
				fmt.Sprintf("%s, which the card listed before the change, still serves the withdrawn document %s", en.URL, en.Digest),
				fmt.Sprintf("it serves %s now %s", orNothing(ch.served[en.URL]), ch.gone[en.URL]), ch.cardAfter.ex)
		}
		if withdrawn == 0 {
			w.Inapplicable("the change withdrew no entry the card listed (every url keeps its commitment)")
		}
	})

	harness.Spec(e, "TE-8.3b", "after the standing proposal changes the signed card is re-signed", func(w *harness.W) {
		s.declaration(w, "TE-8.3b")
		first := s.freshCard(w, "TE-8.3b", "card before the standing proposal changes (signed?)")
		if !first.signed {
			w.Inapplicable("the card carries no signatures: the re-signing rule applies only \"where the card is signed\" (terms §8)")
		}
		cardURL, _ := e.Target.CardURL(Role)
		keys, exs, off := s.cardKeys(w, cardURL, first.raw)
		if len(keys.Keys) == 0 {
			w.Blocked(fmt.Sprintf("no key to verify the card with: no trustedKeys in the target configuration (a JWK Set, A2A §8.4) and no jku on the card's origin%s", offNote(off)))
		}
		ch := s.change(w, "TE-8.3b")
		_, err := verify.CardSignatureAny(ch.cardBefore.raw, keys)
		if err != nil && strings.Contains(err.Error(), verify.StepUnsupportedAlg) {
			w.Blocked("the card is signed with a JWS algorithm the harness cannot verify (" + err.Error() + "): A2A §8.4 names no allow-list")
		}
		w.Control(err == nil, "a signature of the card verifies before the change (A2A §8.4.3: at least one)", errOrOK(err)+offNote(off), firstEx(exs, ch.cardBefore.ex))
		keysAfter, _, offAfter := s.cardKeys(w, cardURL, ch.cardAfter.raw)
		_, err = verify.CardSignatureAny(ch.cardAfter.raw, keysAfter)
		w.Check(err == nil, "a signature of the card served after the change verifies over it (A2A §8.4.3; terms §8 \"re-sign it, where the card is signed\")", errOrOK(err)+offNote(offAfter), ch.cardAfter.ex)
	})
}

// cardKeys are the operator's trustedKeys plus any JWK Set a signature's jku names on the card's origin (the same
// key sources the interview verifier uses).
func (s *state) cardKeys(w *harness.W, cardURL string, raw []byte) (*jose.JSONWebKeySet, []*a2a.Exchange, []string) {
	var trusted *jose.JSONWebKeySet
	if len(s.e.Target.Config.TrustedKeys) > 0 {
		var k jose.JSONWebKeySet
		if err := json.Unmarshal(s.e.Target.Config.TrustedKeys, &k); err != nil {
			w.Blocked("trustedKeys is not a JWK Set: " + err.Error())
		}
		trusted = &k
	}
	return verify.CardKeysWithJKU(w.Ctx(), s.e.Client, cardURL, raw, trusted)
}

func offNote(off []string) string {
	if len(off) == 0 {
		return ""
	}
	return " (a jku off the card's origin is never followed: " + strings.Join(off, ", ") + ")"
}

func firstEx(exs []*a2a.Exchange, def *a2a.Exchange) *a2a.Exchange {
	if def != nil {
		return def
	}
	if len(exs) > 0 {
		return exs[0]
	}
	return nil
}

func entrySummary(es []vterms.Entry) string {
	var out []string
	for _, e := range es {
		out = append(out, e.URL+" → "+e.Digest)
	}
	return strings.Join(out, ", ")
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
	served                map[string]string // url → digest served after the change, for every url either card lists
	gone                  map[string]string // url the old card listed → why it served nothing after the change
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
// servedDigestsTolerant is servedDigests that records a url serving no canonical document (digest "", with the
// reason in gone) instead of blocking the spec.
func (s *state) servedDigestsTolerant(w *harness.W, entries []vterms.Entry) (map[string]string, map[string]string) {
	out, gone := map[string]string{}, map[string]string{}
	for _, en := range entries {
		body, _, err := vterms.FetchProposal(w.Ctx(), s.proposalClient(), en.URL, a2a.Call{Note: "terms proposal (change rows) " + en.URL})
		if err != nil {
			out[en.URL], gone[en.URL] = "", err.Error()
			continue
		}
		d, err := vterms.ProposalDigest(body)
		if err != nil {
			out[en.URL], gone[en.URL] = "", "does not canonicalize: "+err.Error()
			continue
		}
		out[en.URL] = d
	}
	return out, gone
}

func (s *state) servedDigests(w *harness.W, entries []vterms.Entry) map[string]string {
	out := map[string]string{}
	for _, en := range entries {
		body, ex, err := vterms.FetchProposal(w.Ctx(), s.proposalClient(), en.URL, a2a.Call{Note: "terms proposal (change rows) " + en.URL})
		if err != nil {
			w.BlockUnreached(ex, err)
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
		w.Need("changeHook", false, "no change hook: set documents.terms.changeHook to a URL that, on POST, publishes a changed standing proposal (and on POST ?revert=1 restores it)")
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
	// The old urls are read tolerantly: one that serves nothing after the change is what TE-8.3c reports (the fresh
	// card's urls below are read strictly).
	after, gone := s.servedDigestsTolerant(w, ch.cardBefore.entries)
	ch.gone = gone
	ch.before, ch.after = map[string]string{}, map[string]string{}
	for u, d := range after {
		if before[u] != d {
			ch.before[u], ch.after[u] = before[u], d
		}
	}
	ch.cardAfter = s.freshCard(w, row, "card after the standing proposal changed")
	// A change is observed either at a listed url (its bytes changed) or as a new url on the fresh card (a changed
	// proposal published at a new, versioned url).
	var moved []string
	for _, en := range ch.cardAfter.entries {
		if _, old := before[en.URL]; !old {
			moved = append(moved, en.URL)
		}
	}
	ch.served = after
	for u, d := range s.servedDigests(w, ch.cardAfter.entries) {
		ch.served[u] = d
	}
	w.Control(len(ch.after) > 0 || len(moved) > 0, "after the hook, a document served at a listed url changed, or the fresh card lists a new url",
		fmt.Sprintf("%d changed at listed urls, %d new urls", len(ch.after), len(moved)), ex)
	return ch
}

func statusOf(ex *a2a.Exchange) int {
	if ex == nil {
		return 0
	}
	return ex.Status
}

func orNothing(d string) string {
	if d == "" {
		return "nothing (no document, or a fetch that failed)"
	}
	return d
}
