package terms

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/extconf/extconf/fixtures/sow"
	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/target"
	vterms "github.com/extconf/extconf/refclients/terms"
)

var digestSpelling = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

func registerAgentSpecs(s *state) {
	e := s.e

	harness.Spec(e, "TE-3.1", "the terms declaration is data-only: required is absent or false", func(w *harness.W) {
		d := s.declaration(w, "TE-3.1")
		v, present := d.entry["required"]
		w.Check(!present || v == false, "required absent or false",
			fmt.Sprintf("required: %s", jsonOf(v)), d.ex)
	})

	harness.Spec(e, "TE-3.2a", "the terms declaration carries params.proposals as an array", func(w *harness.W) {
		d := s.declaration(w, "TE-3.2a")
		w.Check(d.params != nil, "params is an object", "params: "+jsonOf(d.entry["params"]), d.ex)
		_, isArr := d.params["proposals"].([]any)
		w.Check(isArr, "params.proposals is a JSON array", "params.proposals: "+jsonOf(d.params["proposals"]), d.ex)
	})

	harness.Spec(e, "TE-3.2b", "params.proposals contains at least one entry", func(w *harness.W) {
		d := s.declaration(w, "TE-3.2b")
		if d.entries == nil {
			w.Blocked("params.proposals is absent or not an array (see TE-3.2a)")
		}
		w.Check(len(d.entries) >= 1, "at least one entry", fmt.Sprintf("%d entries", len(d.entries)), d.ex)
	})

	harness.Spec(e, "TE-3.3a", "every proposals entry carries a url", func(w *harness.W) {
		d := s.declaration(w, "TE-3.3a")
		d.needEntries(w)
		for _, en := range d.entries {
			_, isStr := en.obj["url"].(string)
			w.Check(en.obj != nil && isStr && en.url != "", fmt.Sprintf("proposals[%d].url is a non-empty string", en.index),
				fmt.Sprintf("proposals[%d]: %s", en.index, jsonOf(en.obj)), d.ex)
		}
	})

	harness.Spec(e, "TE-3.3b", "every proposals entry carries a digest spelled sha256: and 64 lowercase hex", func(w *harness.W) {
		d := s.declaration(w, "TE-3.3b")
		d.needEntries(w)
		for _, en := range d.entries {
			w.Check(digestSpelling.MatchString(en.dig), fmt.Sprintf("proposals[%d].digest matches ^sha256:[0-9a-f]{64}$", en.index),
				fmt.Sprintf("proposals[%d].digest: %s", en.index, jsonOf(en.obj["digest"])), d.ex)
		}
	})

	harness.Spec(e, "TE-3.3f", "an entry's offering is the id of the skill the card declares for that offering (SHOULD)", func(w *harness.W) {
		d := s.declaration(w, "TE-3.3f")
		d.needEntries(w)
		fold := func(x string) string {
			return strings.Map(func(r rune) rune {
				if r == ' ' || r == '-' || r == '_' || r == '.' {
					return -1
				}
				return r
			}, strings.ToLower(x))
		}
		checked := 0
		for _, en := range d.entries {
			off, ok := en.obj["offering"].(string)
			if !ok || off == "" {
				continue // offering is OPTIONAL
			}
			// The skill for that offering: one whose id or name is the offering up to case and separators. Where
			// none is, the card declares no skill for it and the recommendation does not apply to this entry.
			for _, sk := range d.card.Skills {
				if fold(sk.ID) == fold(off) || fold(sk.Name) == fold(off) {
					checked++
					w.Check(off == sk.ID, fmt.Sprintf("proposals[%d].offering equals the id of skill %q", en.index, sk.ID),
						fmt.Sprintf("proposals[%d].offering: %q; skill id %q, name %q", en.index, off, sk.ID, sk.Name), d.ex)
					break
				}
			}
		}
		if checked == 0 {
			w.Inapplicable("no entry names an offering for which the card declares a skill")
		}
	})

	harness.Spec(e, "TE-8.5", "every proposals entry's url is on the card's own host or domain (SHOULD)", func(w *harness.W) {
		d := s.declaration(w, "TE-8.5")
		d.needEntries(w)
		cardURL, _ := s.e.Target.CardURL(Role)
		cu, err := url.Parse(cardURL)
		if err != nil || cu.Hostname() == "" {
			w.Blocked("the card URL " + cardURL + " has no host to compare with")
		}
		card := strings.ToLower(cu.Hostname())
		parent := ""
		if labels := strings.Split(card, "."); len(labels) >= 3 && net.ParseIP(card) == nil {
			parent = strings.Join(labels[1:], ".")
		}
		for _, en := range d.entries {
			u, err := url.Parse(en.url)
			if en.url == "" || err != nil {
				continue // TE-3.3a, TE-3.3c
			}
			h := strings.ToLower(u.Hostname())
			ok := h == card || strings.HasSuffix(h, "."+card) || (parent != "" && (h == parent || strings.HasSuffix(h, "."+parent)))
			w.Check(ok, fmt.Sprintf("proposals[%d].url is on %s or under its domain", en.index, card), "url: "+en.url, d.ex)
		}
	})

	harness.Spec(e, "TE-3.3c", "every proposals entry's url is an absolute https URL", func(w *harness.W) {
		d := s.declaration(w, "TE-3.3c")
		d.needEntries(w)
		for _, en := range d.entries {
			if en.url == "" {
				w.Blocked(fmt.Sprintf("proposals[%d] has no url (see TE-3.3a)", en.index))
			}
			u, err := url.Parse(en.url)
			ok := err == nil && strings.EqualFold(u.Scheme, "https") && u.Host != ""
			w.Check(ok, fmt.Sprintf("proposals[%d].url has scheme https and a host", en.index), "url: "+en.url, d.ex)
		}
	})

	harness.Spec(e, "TE-3.3d", "every proposals entry's url serves one JSON document", func(w *harness.W) {
		d := s.declaration(w, "TE-3.3d")
		d.needEntries(w)
		for _, en := range d.entries {
			if en.url == "" {
				w.Blocked(fmt.Sprintf("proposals[%d] has no url (see TE-3.3a)", en.index))
			}
			f := s.fetch(w, en.url)
			if f.err != nil && unreachable(f.err) {
				w.Blocked(reachBlock(en.index, en.url, f.err))
			}
			obs := "fetched and parsed"
			if f.err != nil {
				obs = f.err.Error()
			}
			if f.ex != nil {
				obs += fmt.Sprintf(" (status %d, Content-Type %q)", f.ex.Status, f.ex.ResponseHeader.Get("Content-Type"))
			}
			w.Check(f.err == nil, fmt.Sprintf("GET %s answers 2xx with one I-JSON object", en.url), obs, f.ex)
		}
	})

	harness.Spec(e, "TE-3.3e", "every served proposal's JCS digest equals the entry's digest", func(w *harness.W) {
		// The harness's digest must reproduce a committed fixture before it judges anyone else's.
		p := sow.Proposals()[0]
		got, err := vterms.ProposalDigest(p.Doc)
		w.Control(err == nil && got == p.Digest, "the harness's JCS digest of a reference fixture equals its recorded digest", got, nil)
		d := s.declaration(w, "TE-3.3e")
		docs := s.fetchedEntries(w, d)
		for i, en := range d.entries {
			if en.dig == "" {
				w.Blocked(fmt.Sprintf("proposals[%d] has no digest (see TE-3.3b)", en.index))
			}
			got, err := vterms.ProposalDigest(docs[i].body)
			obs := got
			if err != nil {
				obs = err.Error()
			}
			w.Check(err == nil && got == en.dig,
				fmt.Sprintf("SHA-256 of JCS(the complete document at %s) = %s", en.url, en.dig), "the served document hashes to "+obs, docs[i].ex)
		}
	})

	harness.Spec(e, "TE-3.4a", "the terms declaration states params.sow_spec", func(w *harness.W) {
		d := s.declaration(w, "TE-3.4a")
		v, _ := d.params["sow_spec"].(string)
		w.Check(strings.TrimSpace(v) != "", "params.sow_spec is a non-empty string", "params.sow_spec: "+jsonOf(d.params["sow_spec"]), d.ex)
	})

	harness.Spec(e, "TE-3.5a", "every listed proposal is a complete Agent SoW document with graded clauses", func(w *harness.W) {
		d := s.declaration(w, "TE-3.5a")
		docs := s.fetchedEntries(w, d)
		for i, f := range docs {
			if !vterms.KnownSowFormat(f.parsed) {
				w.Blocked(fmt.Sprintf("%s carries format marker sow=%s; the harness implements completeness for Agent SoW \"v1\" only", d.entries[i].url, jsonOf(f.parsed["sow"])))
			}
			probs := vterms.CompletenessProblems(f.parsed)
			w.Check(len(probs) == 0, "a complete Agent SoW v1 document (terms §3 rule 5 \"every clause complete\"): clauses "+strings.Join(vterms.SowClauses, ", ")+
				" each graded in the shape the SPEC gives it, the language descriptor, one price arrangement; "+vterms.CompletenessSentences,
				fmt.Sprintf("%s: %s", d.entries[i].url, orNone(probs)), f.ex)
		}
	})

	harness.Spec(e, "TE-3.5b", "every listed proposal carries a provider signature that verifies over the agent-sow-v1 signed bytes", func(w *harness.W) {
		p := sow.Proposals()[0]
		w.Control(vterms.VerifyProviderSignature(p.Doc) == nil, "the harness verifies a reference fixture's provider signature", "rejected", nil)
		d := s.declaration(w, "TE-3.5b")
		docs := s.fetchedEntries(w, d)
		for i, f := range docs {
			err := vterms.VerifyProviderSignature(f.body)
			if errors.Is(err, vterms.ErrKeyUnsupported) {
				w.Blocked(fmt.Sprintf("%s: %v. Agent SoW §6 names no key type or algorithm, so the harness cannot show this signature invalid; it checks %s", d.entries[i].url, err, vterms.AcceptedSowKeyEncodings))
			}
			w.Check(err == nil, "a signatures[] record with role provider verifying (accepted keys: "+vterms.AcceptedSowKeyEncodings+")",
				fmt.Sprintf("%s: %v", d.entries[i].url, errOrOK(err)), f.ex)
		}
	})

	harness.Spec(e, "TE-3.5c", "every listed proposal has the client seat blank", func(w *harness.W) {
		d := s.declaration(w, "TE-3.5c")
		docs := s.fetchedEntries(w, d)
		for i, f := range docs {
			probs := vterms.StandingProblems(f.parsed)
			w.Check(len(probs) == 0, "parties.client null, starts_at null, no signature record with role client",
				fmt.Sprintf("%s: %s", d.entries[i].url, orNone(probs)), f.ex)
		}
	})

	harness.Spec(e, "TE-3.5e", "the public card lists no directed standing proposal", func(w *harness.W) {
		d := s.declaration(w, "TE-3.5e")
		docs := s.fetchedEntries(w, d)
		w.Control(len(docs) > 0, "the public card's proposals are fetched and parsed", fmt.Sprintf("%d fetched", len(docs)), d.ex)
		for i, f := range docs {
			to, directed := vterms.Directed(f.parsed)
			w.Negative(!directed, "no proposal in the card served to the public carries parties.offered_to",
				fmt.Sprintf("%s is offered to %s", d.entries[i].url, jsonOf(to)), f.ex)
		}
	})

	harness.Spec(e, "TE-3.5f", "a directed standing proposal is listed only in the card served to the party it names", func(w *harness.W) {
		d := s.declaration(w, "TE-3.5f")
		if !d.card.Capabilities.ExtendedAgentCard {
			w.Inapplicable("the agent serves no authenticated card (capabilities.extendedAgentCard is not true): only the public card exists, which TE-3.5e checks")
		}
		rpc, ok := d.card.Interface(a2a.BindingJSONRPC)
		if !ok {
			w.Blocked("the card declares no JSONRPC interface to call GetExtendedAgentCard on")
		}
		d.needEntries(w)
		ps := termsPrincipals(e.Target.Config)
		w.Need("principals", len(ps) > 0, "the agent serves an extended card (capabilities.extendedAgentCard): list in documents.terms.principals the credentials of its clients, each with id = the Agent SoW party (parties.offered_to agent key, handle or owner) it stands for, or declare principals absent when no client has a directed offer")
		named := map[string]bool{} // parties some directed proposal names
		checked := 0
		for _, p := range ps {
			cred := strings.TrimPrefix(p.name, "terms-") // Input.Apply's key for the credential documents.terms.principals names
			w.NeedStated("principals", p.ID != "", fmt.Sprintf("credentials.%s.id is missing: set it to the Agent SoW party (parties.offered_to agent key, handle or owner) the credential stands for", cred))
			c := e.Client.WithHeader(p.Header, p.Value)
			call := a2a.Call{Note: "extended card for " + p.name}
			if v, _ := d.entry["required"].(bool); v {
				// A card that misdeclares the data-only extension required (TE-3.1) would refuse any call without it;
				// requesting it keeps this row about directed proposals only.
				call.Extensions = []string{vterms.URI}
			}
			card, _, ex, err := c.GetExtendedAgentCard(w.Ctx(), rpc.URL, rpc.Tenant, call)
			w.Control(err == nil && card != nil, "GetExtendedAgentCard answers a card to principal "+p.name, errOrOK(err), ex)
			params, err := vterms.ReadParams(card)
			if err != nil {
				continue // an extended card without the declaration lists nothing
			}
			pc := s.proposalClient().WithHeader(p.Header, p.Value)
			for _, en := range params.Entries {
				body, fex, err := vterms.FetchProposal(w.Ctx(), pc, en.URL, a2a.Call{})
				if err != nil {
					w.Blocked(fmt.Sprintf("%s, listed to %s, could not be fetched with that principal's credential: %v", en.URL, p.name, err))
				}
				parsed, _ := vterms.ParseProposal(body)
				to, directed := vterms.Directed(parsed)
				if !directed {
					continue
				}
				for _, n := range partyNames(to) {
					named[n] = true
				}
				checked++
				w.Negative(slices.Contains(partyNames(to), p.ID),
					fmt.Sprintf("a directed proposal listed to principal %s (party %s) is offered to that party", p.name, p.ID),
					fmt.Sprintf("%s is offered to %s", en.URL, jsonOf(to)), fex)
			}
		}
		others := 0
		for _, p := range ps {
			if !named[p.ID] {
				others++
			}
		}
		if others == 0 {
			w.Blocked("every principal of documents.terms.principals is a party some directed proposal names: add one that is not, so the restriction can be observed")
		}
		if checked == 0 {
			w.Inapplicable("no card served to a configured principal lists a directed standing proposal")
		}
	})

	harness.Spec(e, "TE-4.1a", "every price the card's prose states is backed by a listed proposal's price clause", func(w *harness.W) {
		d := s.declaration(w, "TE-4.1a")
		claims := vterms.CardPriceClaims(d.card)
		if len(claims) == 0 {
			w.Inapplicable("the card's prose states no price (amount with a currency, or a no-charge claim)")
		}
		d.needEntries(w)
		var verified []map[string]any
		var failed []string
		for _, en := range d.entries {
			why, f := s.listedVerifies(w, en)
			if why == "" {
				verified = append(verified, f.parsed)
			} else {
				failed = append(failed, en.url+": "+why)
			}
		}
		var unsure []string
		for _, c := range claims {
			b := vterms.PriceBacked(c, verified)
			if b.Backed {
				w.Check(true, "a verifying listed proposal's price clause states "+claimDesc(c), c.Text, d.ex)
				continue
			}
			if len(failed) > 0 {
				w.Blocked(fmt.Sprintf("the claim %q (%s) is not backed by a verifying proposal, and listed proposals failed verification (TE-3.3e/3.5b/3.5c): %s", c.Text, c.Where, strings.Join(failed, "; ")))
			}
			if c.Unsure && s.statedNotAClaim(w, c.Text) {
				continue // the operator's claim map says the sentence states no claim
			}
			if c.Unsure || b.Undecided != "" {
				unsure = append(unsure, fmt.Sprintf("%s: %q (%s)", c.Where, c.Text, orWhy(c.Why, b.Undecided)))
				continue
			}
			obs := fmt.Sprintf("%s says %q; verified price clauses: %s", c.Where, c.Text, pricesOf(verified))
			if b.Near != "" {
				obs += "; " + b.Near
			}
			w.Check(false, "a verifying listed proposal's price clause states "+claimDesc(c), obs, d.ex)
		}
		if len(unsure) > 0 {
			w.Blocked("the harness cannot tell whether these amounts state a price, or compare them with the clauses (terms §4 binds where the prose \"state[s] a price\"): " +
				strings.Join(unsure, "; ") + `. An operator who reads them as no price says so in the claim map: {"kind": "none", "span": "<the sentence>"}`)
		}
	})

	claimSpec := func(row, kind string, lexicon *vterms.Lexicon, text string) {
		harness.Spec(e, row, text, func(w *harness.W) {
			d := s.declaration(w, row)
			flagged := vterms.FlaggedSentences(d.card, lexicon)
			_, mapped := s.e.Target.CardURL(RoleClaims)
			if _, inline := s.inlineClaims(); inline {
				mapped = true
			}
			if len(flagged) == 0 && !mapped {
				w.Inapplicable(fmt.Sprintf("the card's prose states no %s claim the lexicon flags, and no claim map is configured", kind))
			}
			cm, cex := s.claimMap(w)
			var mine, notClaims []claim
			for _, c := range cm.Claims {
				switch c.Kind {
				case kind:
					mine = append(mine, c)
				case NotAClaim:
					notClaims = append(notClaims, c)
				}
			}
			if len(flagged) == 0 && len(mine) == 0 {
				w.Inapplicable(fmt.Sprintf("the card's prose states no %s claim the lexicon flags, and the claim map maps none", kind))
			}
			prose := vterms.CardProse(d.card)
			if len(mine) > 0 {
				d.needEntries(w)
			}
			for _, c := range mine {
				w.Control(spanIn(prose, c.Span), fmt.Sprintf("the claim map's span %q occurs in the card's prose", c.Span), "not found in the card", cex)
				c.Proposal = s.proposalURL(c.Proposal)
				en, ok := d.entryByURL(c.Proposal)
				if !ok && d.someEntryLacksURL() {
					w.Blocked(fmt.Sprintf("the claim map points at %s, and an entry has no url (see TE-3.3a)", c.Proposal))
				}
				w.Check(ok, fmt.Sprintf("the claim %q is backed by a proposal the card lists", c.Span), "the claim map points at "+c.Proposal+", which the card does not list", d.ex)
				why, f := s.listedVerifies(w, en)
				if why != "" {
					w.Blocked(fmt.Sprintf("%s, which backs %q, fails verification (TE-3.3e/3.5b/3.5c): %s", c.Proposal, c.Span, why))
				}
				got, found := vterms.ClauseValue(f.parsed, c.Path)
				w.Check(found && jsonOf(got) == jsonOf(c.Value),
					fmt.Sprintf("%q: clause %s of %s states %s", c.Span, c.Path, c.Proposal, jsonOf(c.Value)),
					fmt.Sprintf("clause %s is %s", c.Path, jsonOrAbsent(got, found)), f.ex)
			}
			for _, c := range notClaims {
				w.Control(spanIn(prose, c.Span), fmt.Sprintf("the claim map's span %q (not a claim) occurs in the card's prose", c.Span), "not found in the card", cex)
			}
			// A flagged sentence the map leaves out is a fact the operator has not stated (which clause backs it, or
			// that it states none), not a claim shown unbacked: the row blocks naming the member, never fails.
			var unmapped, spans []string
			for _, c := range append(mine, notClaims...) {
				spans = append(spans, c.Span)
			}
			for _, sn := range flagged {
				if !lexicon.Covered(sn.Text, spans) {
					unmapped = append(unmapped, fmt.Sprintf("%s: %q", sn.Where, sn.Text))
				}
			}
			if len(unmapped) > 0 {
				w.Blocked(fmt.Sprintf("documents.terms.claims maps no clause to this %s sentence the lexicon flags: %s; add {\"kind\": %q, \"span\", \"proposal\", \"path\", \"value\"}, or {\"kind\": \"none\", \"span\"} when it states no claim",
					kind, strings.Join(unmapped, "; "), kind))
			}
		})
	}
	claimSpec("TE-4.1b", "term", vterms.TermLexicon, "every term the card's prose states is backed by a clause of a listed proposal")
	claimSpec("TE-4.1c", "data-use", vterms.DataUseLexicon, "every data-use claim the card's prose states is backed by a clause of a listed proposal")
}

type namedPrincipal struct {
	name string
	target.Principal
}

// termsPrincipals are the principals this suite uses: keys starting "terms" when any exist (the mock fleet merges
// several agents' principals), else every configured principal.
func termsPrincipals(cfg target.Config) []namedPrincipal {
	var mine, all []namedPrincipal
	for name, p := range cfg.Principals {
		np := namedPrincipal{name, p}
		all = append(all, np)
		if strings.HasPrefix(name, "terms") {
			mine = append(mine, np)
		}
	}
	if len(mine) > 0 {
		all = mine
	}
	sortPrincipals(all)
	return all
}

func sortPrincipals(ps []namedPrincipal) {
	for i := 1; i < len(ps); i++ {
		for j := i; j > 0 && ps[j].name < ps[j-1].name; j-- {
			ps[j], ps[j-1] = ps[j-1], ps[j]
		}
	}
}

func jsonOf(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func jsonOrAbsent(v any, found bool) string {
	if !found {
		return "absent"
	}
	return jsonOf(v)
}

func orNone(p []string) string {
	if len(p) == 0 {
		return "no problem"
	}
	return strings.Join(p, "; ")
}

func errOrOK(err error) string {
	if err == nil {
		return "ok"
	}
	return err.Error()
}
