package onrequest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	vonrequest "github.com/extconf/extconf/refclients/onrequest"
)

// cardSpecs are the rows of §3 read from the card (static) and the operator statement (gated).
func (s *suite) cardSpecs() {
	s.spec("OR-3.1a", "the card declares the extension under its exact URI", func(w *harness.W) {
		a := s.loadAgent(w, roleMain, "OR-3.1a")
		w.Check(a.decl.Exact, "capabilities.extensions[] holds uri "+vonrequest.URI+" byte for byte",
			fmt.Sprintf("the declaration's uri is %q", a.decl.URI), a.ex)
	})

	s.spec("OR-3.1b", "the extension is declared with required false or absent", func(w *harness.W) {
		a := s.loadAgent(w, roleMain, "OR-3.1b")
		req := bytes.TrimSpace(a.decl.Required)
		ok := len(req) == 0 || string(req) == "false"
		obs := "required is absent"
		if len(req) > 0 {
			obs = "required is " + string(req)
		}
		w.Check(ok, "required: false, or absent (A2A's default)", obs, a.ex)
	})

	s.spec("OR-3.2a", "params.skills is an array of entry objects", func(w *harness.W) {
		a := s.loadAgent(w, roleMain, "OR-3.2a")
		w.Check(a.decl.EntriesProblem == "", "params is an object whose skills member is an array of objects",
			a.decl.EntriesProblem, a.ex)
	})

	s.spec("OR-3.2b", "params.skills lists each on-request skill once", func(w *harness.W) {
		a := s.loadAgent(w, roleMain, "OR-3.2b")
		count := map[string]int{}
		var dup []string
		for _, e := range a.entries(w) {
			if e.ID == "" {
				continue
			}
			count[e.ID]++
			if count[e.ID] == 2 {
				dup = append(dup, e.ID)
			}
		}
		w.Check(len(dup) == 0, "no skill id appears in two entries", fmt.Sprintf("listed more than once: %v", dup), a.ex)
	})

	s.spec("OR-3.3a", "every params.skills entry has an id", func(w *harness.W) {
		a := s.loadAgent(w, roleMain, "OR-3.3a")
		for _, e := range a.entries(w) {
			w.Check(e.ID != "", "params.skills entry has id, a non-empty string",
				fmt.Sprintf("params.skills[%d] is %s", e.Index, memberJSON(e.Members)), a.ex)
		}
	})

	s.spec("OR-3.3b", "every params.skills entry names a skill of the same card", func(w *harness.W) {
		a := s.loadAgent(w, roleMain, "OR-3.3b")
		var ids []string
		for _, sk := range a.card.Skills {
			ids = append(ids, sk.ID)
		}
		for _, e := range a.entries(w) {
			if e.ID == "" {
				continue // OR-3.3a
			}
			_, ok := a.card.Skill(e.ID)
			w.Check(ok, fmt.Sprintf("entry id %q is the id of a skill in the card", e.ID),
				fmt.Sprintf("the card's skills are %v", ids), a.ex)
		}
	})

	s.spec("OR-3.4a", "every entry's personEntry is an https address or a tel: number", func(w *harness.W) {
		a := s.loadAgent(w, roleMain, "OR-3.4a")
		for _, e := range a.entries(w) {
			_, err := vonrequest.CheckPersonEntry(e.PersonEntry)
			obs := ""
			if err != nil {
				obs = fmt.Sprintf("params.skills[%d] (%s): %v", e.Index, e.ID, err)
			}
			w.Check(err == nil, "personEntry is an absolute https: URL or a global tel: number", obs, a.ex)
		}
	})

	s.spec("OR-3.4b", "every https personEntry is a live page", func(w *harness.W) {
		a := s.loadAgent(w, roleMain, "OR-3.4b")
		st := s.loadStatement(w, "OR-3.4b")
		ex, err := s.getPage(w, "OR-3.4b", a.ex.URL)
		w.Control(err == nil, "the card URL answers 2xx over the client that fetches personEntry pages", fmt.Sprint(err), ex)
		n, skipped := 0, []string{}
		for _, e := range a.entries(w) {
			if kind, err := vonrequest.CheckPersonEntry(e.PersonEntry); err != nil || kind != vonrequest.PersonEntryHTTPS {
				continue // OR-3.4a
			}
			if !operatorOrigin(e.PersonEntry, a.ex.URL, st) {
				skipped = append(skipped, e.PersonEntry)
				continue // the harness fetches only origins the operator controls (OR-3.4c grades the rest)
			}
			n++
			ex, err := s.getPage(w, "OR-3.4b", e.PersonEntry)
			w.Check(err == nil, fmt.Sprintf("GET %s (entry %s) answers 2xx", e.PersonEntry, e.ID), fmt.Sprint(err), ex)
		}
		if n == 0 && len(skipped) > 0 {
			w.Blocked(fmt.Sprintf("the https personEntry addresses %v are on origins not known to be the operator's; list them in the operator statement's operatorOrigins to have them fetched", skipped))
		}
		if n == 0 {
			w.Inapplicable("the card has no https personEntry")
		}
	})

	s.spec("OR-3.4c", "every https personEntry is on an origin the operator controls", func(w *harness.W) {
		a := s.loadAgent(w, roleMain, "OR-3.4c")
		var https []vonrequest.Entry
		for _, e := range a.entries(w) {
			if kind, err := vonrequest.CheckPersonEntry(e.PersonEntry); err == nil && kind == vonrequest.PersonEntryHTTPS {
				https = append(https, e)
			}
		}
		if len(https) == 0 {
			w.Inapplicable("the card has no https personEntry")
		}
		var st *statement
		for _, e := range https {
			if operatorOrigin(e.PersonEntry, a.ex.URL, nil) {
				continue
			}
			// Only the operator can say which other origins it controls (Annex A.1 itself puts personEntry on
			// ask.example.com and the card on agent.example.com): without a stated list the row blocks, proposing
			// the likely candidates the card shows; only stated origins count.
			st = s.loadStatement(w, "OR-3.4c")
			if st == nil || st.OperatorOrigins == nil {
				cands := []string{vonrequest.Origin(a.ex.URL)}
				if a.card.Provider != nil && vonrequest.Origin(a.card.Provider.URL) != "" {
					cands = append(cands, vonrequest.Origin(a.card.Provider.URL))
				}
				w.Blocked(fmt.Sprintf("personEntry %s (entry %s) is on %s, not the card's origin: whether the operator controls it is the operator's to state (operatorOrigins in the operator statement, role %s). Origins the card suggests: %v (the card's; provider.url's); add %s if it is the operator's",
					e.PersonEntry, e.ID, vonrequest.Origin(e.PersonEntry), roleOperator, cands, vonrequest.Origin(e.PersonEntry)))
			}
			break
		}
		for _, e := range https {
			var listed []string
			if st != nil {
				listed = st.OperatorOrigins
			}
			w.Check(operatorOrigin(e.PersonEntry, a.ex.URL, st),
				fmt.Sprintf("personEntry %s (entry %s) is on the card's origin %s or an origin the operator states it controls",
					e.PersonEntry, e.ID, vonrequest.Origin(a.ex.URL)),
				fmt.Sprintf("origin %s; the operator states %v", vonrequest.Origin(e.PersonEntry), listed), a.ex)
		}
	})

	s.spec("OR-3.4d", "every tel: personEntry is a number the operator answers", func(w *harness.W) {
		a := s.loadAgent(w, roleMain, "OR-3.4d")
		var tels []vonrequest.Entry
		for _, e := range a.entries(w) {
			if kind, err := vonrequest.CheckPersonEntry(e.PersonEntry); err == nil && kind == vonrequest.PersonEntryTel {
				tels = append(tels, e)
			}
		}
		if len(tels) == 0 {
			w.Inapplicable("the card has no tel: personEntry")
		}
		st := s.requireStatement(w, "OR-3.4d", "operator.operatorPhones", "which telephone numbers are answered by or for the operator")
		// "operatorPhones": [] states that no number is answered by or for the operator; only a statement without
		// the member leaves the row open.
		w.Need("operator.operatorPhones", st.OperatorPhones != nil, "the operator statement lists no operatorPhones, the numbers answered by or for the operator ([] for none)")
		for _, e := range tels {
			ok := false
			for _, p := range st.OperatorPhones {
				ok = ok || vonrequest.Digits(p) == vonrequest.Digits(e.PersonEntry)
			}
			w.Check(ok, fmt.Sprintf("%s (entry %s) is a number the operator states is answered by or for it", e.PersonEntry, e.ID),
				fmt.Sprintf("the operator states %v", st.OperatorPhones), a.ex)
		}
	})

	s.spec("OR-3.4e", "an action's personEntry is an https address", func(w *harness.W) {
		a := s.loadAgent(w, roleMain, "OR-3.4e")
		st := s.loadStatement(w, "OR-3.4e")
		actions := a.skillEntries(w, func(e vonrequest.Entry) bool { return isAction(e, st) })
		if len(actions) == 0 {
			w.Inapplicable("no entry is an action (none carries completion, and the operator statement names no actionSkills)")
		}
		// "An action the person must carry out themselves (§6.3)": one the agent refers to the person (action-
		// referred, OR-6.3). Read from the card: an action without assistantAccess true is always referred (OR-5.7);
		// an opted-in one may be carried out for the person (a staff callback on a tel: entry). The operator's
		// personActions, when stated, says which they are.
		n := 0
		for _, e := range actions {
			must, why := !e.AssistantAccess, "assistantAccess is not true, so the agent always refers it (OR-5.7) and the person carries it out"
			if st != nil && st.PersonActions != nil {
				must, why = contains(st.PersonActions, e.ID), "the operator statement's personActions names it"
			}
			if !must {
				continue
			}
			n++
			kind, _ := vonrequest.CheckPersonEntry(e.PersonEntry)
			w.Check(kind == vonrequest.PersonEntryHTTPS, fmt.Sprintf("action %s, which the person must carry out themselves (%s), has an https personEntry", e.ID, why),
				fmt.Sprintf("personEntry %q", e.PersonEntry), a.ex)
		}
		if n == 0 {
			w.Inapplicable("no action is one the person must carry out themselves (every action is opted in, or the operator's personActions names none)")
		}
	})

	s.spec("OR-3.7", "no listed skill also carries securityRequirements", func(w *harness.W) {
		a := s.loadAgent(w, roleMain, "OR-3.7")
		for _, e := range a.skillEntries(w, func(vonrequest.Entry) bool { return true }) {
			sk, _ := a.card.Skill(e.ID)
			b, _ := json.Marshal(sk.SecurityRequirements)
			w.Check(len(sk.SecurityRequirements) == 0, fmt.Sprintf("skill %s, listed as on request, has no securityRequirements", e.ID),
				"securityRequirements "+string(b), a.ex)
		}
	})

	s.spec("OR-3.8a", "no personEntry carries a query string", func(w *harness.W) {
		a := s.loadAgent(w, roleMain, "OR-3.8a")
		n := 0
		for _, e := range a.entries(w) {
			if kind, err := vonrequest.CheckPersonEntry(e.PersonEntry); err != nil || kind != vonrequest.PersonEntryHTTPS {
				continue
			}
			n++
			u, _ := url.Parse(e.PersonEntry)
			w.Check(u.RawQuery == "" && !u.ForceQuery, fmt.Sprintf("personEntry of %s has no query component", e.ID),
				fmt.Sprintf("%s (query %q)", e.PersonEntry, u.RawQuery), a.ex)
		}
		if n == 0 {
			w.Inapplicable("the card has no https personEntry")
		}
	})

	s.spec("OR-3.8b", "no personEntry path names a circumstance of the person", func(w *harness.W) {
		a := s.loadAgent(w, roleMain, "OR-3.8b")
		st := s.loadStatement(w, "OR-3.8b")
		var extra []string
		if st != nil {
			extra = st.CircumstanceTerms
		}
		n := 0
		for _, e := range a.entries(w) {
			if kind, err := vonrequest.CheckPersonEntry(e.PersonEntry); err != nil || kind != vonrequest.PersonEntryHTTPS {
				continue
			}
			n++
			found := vonrequest.PathCircumstancesFor(e.PersonEntry, extra, operatorWords(a))
			w.Check(len(found) == 0, fmt.Sprintf("the path of %s (entry %s) holds no circumstance term (a word-list screen; words the operator uses of itself in provider, card name or description are its own, the same for every caller)", e.PersonEntry, e.ID),
				fmt.Sprintf("circumstance terms in the path: %v", found), a.ex)
		}
		if n == 0 {
			w.Inapplicable("the card has no https personEntry")
		}
	})

	s.spec("OR-3.9", "no skill text contains a value the operator gives on request", func(w *harness.W) {
		const row = "OR-3.9"
		a := s.loadAgent(w, roleMain, row)
		st := s.loadStatement(w, row)
		var values []string
		if st != nil {
			values = st.allValues()
		}
		// What the agent itself gives on opt-in is a value given on request too: its amounts are looked for as well.
		if s.hasActingFor() {
			for _, e := range s.informational(w, a, st, true) {
				for _, o := range s.send(w, row, a, probe{skill: e.ID, activated: true, person: true, first: true}) {
					// Declining the MAY of OR-5.4 is the agent's right: then there is simply nothing to read here.
					if !isGiven(o) {
						continue
					}
					for _, v := range vonrequest.MoneyAmounts(o.reply.ArtifactText()) {
						if !contains(values, v) {
							values = append(values, v)
						}
					}
				}
			}
		}
		if len(values) == 0 {
			w.Need("operator.values|actingFor", false, "no value given on request is known: state them in the operator statement (\"values\": {skillId: [value, …]}, role on-request.operator), or configure actingFor so that what the agent gives on opt-in can be read")
		}
		// The card is the public card and, where the agent declares one, the card it serves to an authenticated
		// caller (read with the first calling assistant's credential).
		type cardSkills struct {
			which  string
			skills []a2a.AgentSkill
			ex     *a2a.Exchange
		}
		cards := []cardSkills{{"the public card", a.card.Skills, a.ex}}
		if a.card.Capabilities.ExtendedAgentCard {
			rpc, ok := a.card.Interface(a2a.BindingJSONRPC)
			if !ok {
				w.Blocked("the card declares an extended card (capabilities.extendedAgentCard) but no JSONRPC interface to call GetExtendedAgentCard on")
			}
			pr := s.e.Target.Config.Principals[s.assistants(w, 1)[0]]
			ext, resp, ex, err := s.e.Client.WithHeader(pr.Header, pr.Value).GetExtendedAgentCard(w.Ctx(), rpc.URL, rpc.Tenant, a2a.Call{Note: row + ": extended card"})
			if err != nil || ext == nil || (resp != nil && resp.Error != nil) {
				w.Blocked(fmt.Sprintf("the card declares an extended card, and GetExtendedAgentCard with the first calling assistant's credential did not return one (%v; %s), so its skill text cannot be read", err, ex.Summary()))
			}
			cards = append(cards, cardSkills{"the extended card", ext.Skills, ex})
		}
		for _, c := range cards {
			for _, sk := range c.skills {
				fields := map[string]string{"name": sk.Name, "description": sk.Description,
					"examples": strings.Join(sk.Examples, " | "), "tags": strings.Join(sk.Tags, " | ")}
				for _, f := range []string{"name", "description", "examples", "tags"} {
					var hits []string
					for _, v := range values {
						hit, amb := vonrequest.MatchValue(fields[f], v)
						if hit != "" {
							hits = append(hits, v)
						} else if amb != "" {
							w.Blocked(fmt.Sprintf("skill %s's %s in %s writes the amount of %q without its currency, in a sentence about cost: %q; a value is a currency and an amount together, so whether it is the value is not clear", sk.ID, f, c.which, v, amb))
						}
					}
					w.Check(len(hits) == 0, fmt.Sprintf("skill %s's %s in %s contains no value given on request (of %v)", sk.ID, f, c.which, values),
						fmt.Sprintf("%q contains %v", fields[f], hits), c.ex)
				}
			}
		}
	})
}

// isAction reports whether an entry is for a skill that changes something: it carries completion, or the operator
// names it.
func isAction(e vonrequest.Entry, st *statement) bool {
	return e.IsAction() || (st != nil && st.isActionSkill(e.ID))
}

func memberJSON(m map[string]json.RawMessage) string {
	b, _ := json.Marshal(m)
	return string(b)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// operatorWords is what the operator says of itself: provider organization and URL, card name and description
// (OR-3.8b exempts these words: a hospice's /hospice path names the operator, not the person).
func operatorWords(a *agentView) string {
	c := a.card
	words := []string{c.Name, c.Description}
	if c.Provider != nil {
		words = append(words, c.Provider.Organization, c.Provider.URL)
	}
	return strings.Join(words, " ")
}
