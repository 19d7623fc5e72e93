package interview

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	vinterview "github.com/extconf/extconf/refclients/interview"
	vterms "github.com/extconf/extconf/refclients/terms"
)

// The content rows: what each of the five methods answers from (§4's table), what the answer names (§5), and
// activation (§3 rule 2). The table and §3 rule 2 carry no keyword; the catalog rows say why they are graded.
func registerContentSpecs(e *harness.Env) {
	harness.Spec(e, "IV-3.2a", "an interview method called without the URI in A2A-Extensions gets -32601 method not found", func(w *harness.W) {
		s := open(w, "IV-3.2a", roleMain)
		for _, m := range append(append([]string(nil), vinterview.Methods...), "interview/x-"+nonce()) {
			if slices.Contains(vinterview.Methods, m) {
				s.answer(m, nil, "control: "+m+" with the URI activated")
			}
			r := s.ask(m, nil, false, m+" without the URI in A2A-Extensions")
			ok := r.RPCError != nil && r.RPCError.Code == a2a.CodeMethodNotFound && r.Result == nil
			w.Negative(ok, m+" without activation receives the JSON-RPC error -32601 method not found (§3 rule 2: \"receives the protocol's standard method-not-found error rather than anything defined here\")",
				r.Observed(), r.Exchange)
		}
	})

	harness.Spec(e, "IV-3.2b", "the agent lists the interview URI in the A2A-Extensions response header when activated", func(w *harness.W) {
		s := open(w, "IV-3.2b", roleMain)
		for _, m := range vinterview.Methods {
			r := s.answer(m, nil, m+": the A2A-Extensions response header")
			var listed []string
			if r.Exchange != nil {
				for _, v := range r.Exchange.ResponseHeader.Values(a2a.HeaderExtensions) {
					for _, u := range strings.Split(v, ",") {
						listed = append(listed, strings.TrimSpace(u))
					}
				}
			}
			w.Check(slices.Contains(listed, vinterview.URI),
				m+": the A2A-Extensions response header lists "+vinterview.URI+" (§3 rule 2: \"the agent lists the URIs it actually activated in the A2A-Extensions response header\")",
				fmt.Sprintf("A2A-Extensions: %q", listed), r.Exchange)
		}
	})

	harness.Spec(e, "IV-3.2c", "a reply to a request that did not activate the interview does not list its URI in A2A-Extensions", func(w *harness.W) {
		s := open(w, "IV-3.2c", roleMain)
		for _, m := range append(append([]string(nil), vinterview.Methods...), "interview/x-"+nonce()) {
			r := s.ask(m, nil, false, m+" without the URI in A2A-Extensions: the response header")
			w.Control(r.Exchange != nil && r.Exchange.Status > 0, m+" without activation draws an HTTP response whose headers can be read", r.Observed(), r.Exchange)
			var listed []string
			for _, v := range r.Exchange.ResponseHeader.Values(a2a.HeaderExtensions) {
				for _, u := range strings.Split(v, ",") {
					listed = append(listed, strings.TrimSpace(u))
				}
			}
			w.Negative(!slices.Contains(listed, vinterview.URI),
				m+" without activation: the A2A-Extensions response header does not list "+vinterview.URI+" (§3 rule 2: \"the agent lists the URIs it actually activated\")",
				fmt.Sprintf("A2A-Extensions: %q", listed), r.Exchange)
		}
	})

	coverage := func(row, method, sentence string, want func(s *session, card map[string]any) []string) {
		harness.Spec(e, row, method+" answers from what §4's table names", func(w *harness.W) {
			s := open(w, row, roleMain)
			var card map[string]any
			if err := json.Unmarshal(s.raw, &card); err != nil {
				w.Blocked("the card is not a JSON object: " + err.Error())
			}
			ptrs := want(s, card)
			r := s.answer(method, nil, "what the answer projects")
			for _, ptr := range ptrs {
				w.Check(covered(r.Answer.Projections, ptr),
					fmt.Sprintf("%s projects the card's %s (or an ancestor member): §4 table, %q", method, ptr, sentence),
					"card members projected: "+cardMembers(r.Answer.Projections), r.Exchange)
			}
		})
	}
	coverage("IV-4.0a", "interview/identity", "The card: name, provider, url, version, and its JWS signature.", func(s *session, card map[string]any) []string {
		out := []string{"/name", "/version"}
		for _, k := range []string{"provider", "url", "signatures"} {
			if _, ok := card[k]; ok {
				out = append(out, "/"+k)
			}
		}
		return out
	})
	coverage("IV-4.0b", "interview/capabilities", "The card: skills, each with its id and description.", func(s *session, card map[string]any) []string {
		var out []string
		for i := range s.card.Skills {
			out = append(out, fmt.Sprintf("/skills/%d/id", i), fmt.Sprintf("/skills/%d/description", i))
		}
		return out
	})
	coverage("IV-4.0c", "interview/usage", "The card: interfaces and transports, per-skill input and output modes, securitySchemes.", func(s *session, card map[string]any) []string {
		out := []string{"/supportedInterfaces"}
		if _, ok := card["securitySchemes"]; ok {
			out = append(out, "/securitySchemes")
		}
		skills, _ := card["skills"].([]any)
		for i, sk := range skills {
			m, _ := sk.(map[string]any)
			for _, k := range []string{"inputModes", "outputModes"} {
				if _, ok := m[k]; ok {
					out = append(out, fmt.Sprintf("/skills/%d/%s", i, k))
				}
			}
		}
		return out
	})
	coverage("IV-4.0e", "interview/refusals", "the declared skill ids, stated as the boundary", func(s *session, card map[string]any) []string {
		var out []string
		for i := range s.card.Skills {
			out = append(out, fmt.Sprintf("/skills/%d/id", i))
		}
		if len(out) == 0 {
			s.w.Inapplicable("the card declares no skills: the boundary is empty")
		}
		return out
	})

	harness.Spec(e, "IV-4.0d", "interview/terms projects every proposal the card's terms entry commits to", func(w *harness.W) {
		s := open(w, "IV-4.0d", roleMain)
		d := s.declared("the card's terms entries")
		if _, ok := d.Card.Extension(termsURI); !ok || len(d.Entries) == 0 {
			w.Inapplicable("the card's terms extension entry lists no proposals (an agent without one is IV-4.4's)")
		}
		r := s.answer("interview/terms", nil, "terms, no selector")
		const sentence = "The terms extension's committed standing proposals, fetched and projected by their clauses."
		w.Check(r.Answer.Declared == nil || *r.Answer.Declared,
			"interview/terms does not answer declared false while the card commits to proposals (§4 table: \""+sentence+"\"; §4 rule 4 reserves false for a card without a terms entry)",
			fmt.Sprintf("declared: %v", declaredText(r.Answer.Declared)), r.Exchange)
		for _, en := range d.Entries {
			n, clauses := 0, 0
			var members []string
			for _, p := range r.Answer.Projections {
				if p.Source.Document == "proposal" && p.Source.URL == en.URL && p.Source.Digest == en.Digest {
					n++
					members = append(members, p.Source.Member)
					if clauseMember(p.Source.Member) {
						clauses++
					}
				}
			}
			w.Check(clauses > 0, fmt.Sprintf("interview/terms projects the committed proposal %s by a clause (a member at or under one of %s, or the whole document; §4 table: %q)", en.URL, strings.Join(vterms.SowClauses, ", "), sentence),
				fmt.Sprintf("%d projections cite it (members %q); %d projections in all", n, members, len(r.Answer.Projections)), r.Exchange)
		}
	})

	harness.Spec(e, "IV-5.0", "each answer's question names the method asked", func(w *harness.W) {
		s := open(w, "IV-5.0", roleMain)
		for _, r := range s.five("question") {
			q := strings.TrimPrefix(r.Method, "interview/")
			w.Check(r.Answer.Question == q || r.Answer.Question == r.Method,
				fmt.Sprintf("%s answers question %q (§5: \"Every response is an object naming the question\")", r.Method, q),
				fmt.Sprintf("question %q", r.Answer.Question), r.Exchange)
		}
	})
}

// clauseMember: the pointer is the whole document or at or under an Agent SoW clause ("/price", "/scope/refusals"),
// not a document member that is no clause ("/id", "/signatures", "/sow", "/version").
func clauseMember(ptr string) bool {
	if ptr == "" {
		return true
	}
	first, _, _ := strings.Cut(strings.TrimPrefix(ptr, "/"), "/")
	return slices.Contains(vterms.SowClauses, first) || slices.Contains(vterms.OptionalSowClauses, first)
}

// covered reports whether some card projection's member is ptr or an ancestor of it ("" is the whole card).
func covered(ps []vinterview.Projection, ptr string) bool {
	for _, p := range ps {
		if p.Source.Document != "card" {
			continue
		}
		m := p.Source.Member
		if m == ptr || m == "" || strings.HasPrefix(ptr, m+"/") {
			return true
		}
	}
	return false
}

func cardMembers(ps []vinterview.Projection) string {
	var out []string
	for _, p := range ps {
		if p.Source.Document == "card" {
			out = append(out, p.Source.Member)
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, " ")
}

func declaredText(b *bool) string {
	if b == nil {
		return "absent"
	}
	return fmt.Sprint(*b)
}
