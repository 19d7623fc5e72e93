package interview

import (
	"fmt"
	"strings"

	"github.com/extconf/extconf/harness"
	vinterview "github.com/extconf/extconf/refclients/interview"
)

// registerAgentAnswerShape: §5, the answer shape.
func registerAgentAnswerShape(e *harness.Env) {
	harness.Spec(e, "IV-5.1a", "every proposal source carries url and digest", func(w *harness.W) {
		const row = "IV-5.1a"
		s := open(w, row, roleMain)
		for i, p := range proposalSources(s) {
			w.Check(p.Source.URL != "" && p.Source.Digest != "", "a proposal source carries both url and digest",
				fmt.Sprintf("%s projection %d: url %q, digest %q", p.r.Label(), i, p.Source.URL, p.Source.Digest), p.r.Exchange)
		}
	})

	harness.Spec(e, "IV-5.1b", "a proposal source's url and digest are byte for byte those of one terms entry of the card", func(w *harness.W) {
		const row = "IV-5.1b"
		s := open(w, row, roleMain)
		srcs := proposalSources(s)
		d := s.declared("the card's terms entries")
		for i, p := range srcs {
			_, ok := d.Entry(p.Source.URL, p.Source.Digest)
			w.Check(ok, "some params.proposals[] entry of the card's terms extension has this url and digest byte for byte",
				fmt.Sprintf("%s projection %d cites url %q digest %q; the card lists %s", p.r.Label(), i, p.Source.URL, p.Source.Digest, entriesText(d)), p.r.Exchange)
		}
	})

	harness.Spec(e, "IV-5.2", "every projected value equals, under JCS, the value its pointer resolves to in the source document", func(w *harness.W) {
		const row = "IV-5.2"
		s := open(w, row, roleMain)
		// Selector answers too: §5 rule 2 binds every projection, and a usage{skill} or terms{skill} answer is one.
		replies, cs, _ := s.persistent(func(round int) []*vinterview.Reply {
			note := fmt.Sprintf("round %d", round)
			return append(s.five(note), s.selectorAnswers([]string{"interview/usage", "interview/terms"}, note)...)
		}, vinterview.ConflictValue)
		bad := map[string]vinterview.Conflict{}
		for _, c := range cs {
			bad[fmt.Sprintf("%p#%d", c.Exchange, c.Index)] = c
		}
		for _, r := range replies {
			for i, p := range r.Answer.Projections {
				c, failed := bad[fmt.Sprintf("%p#%d", r.Exchange, i)]
				w.Check(!failed, fmt.Sprintf("%s projection %d: JCS(value) is byte-identical to JCS of %s %s", r.Label(), i, p.Source.Document, p.Source.Member),
					c.Detail+" (persisted after re-fetching the card and re-asking)", r.Exchange)
			}
		}
	})

	harness.Spec(e, "IV-5.2", "a conflict that clears after re-fetching the card and re-asking is churn, not a failure", func(w *harness.W) {
		const row = "IV-5.2"
		s := open(w, row, roleChurn)
		rep := s.procedure(runBy(e))
		if !rep.Steps[0].OK {
			s.blockOnKeys(rep.Steps[0].Detail)
		}
		if len(rep.FirstDiff) == 0 {
			w.Inapplicable("the agent in role " + roleChurn + " did not change between the verifier's fetch and its calls; churn handling was not exercised")
		}
		var obs []string
		for _, c := range rep.Conflicts {
			if c.Kind == vinterview.ConflictValue {
				obs = append(obs, c.String())
			}
		}
		w.Check(len(obs) == 0,
			fmt.Sprintf("the %d first-round conflicts clear on the re-run (§7 rule 3): no persistent value conflict", len(rep.FirstDiff)),
			"persistent: "+strings.Join(obs, "; "), rep.Declared.CardExchange)
	})

	harness.Spec(e, "IV-5.3a", "an answer carries no top-level member other than question, declared and projections", func(w *harness.W) {
		const row = "IV-5.3a"
		s := open(w, row, roleMain)
		for _, r := range s.five("answer shape") {
			extra := vinterview.Outside(r.Answer.Keys, vinterview.AnswerMembers)
			w.Check(len(extra) == 0, r.Method+"'s answer has only question, declared and projections", fmt.Sprintf("extra members %q", extra), r.Exchange)
		}
	})

	harness.Spec(e, "IV-5.3b", "a projection carries only source and value, a source only document, member, url and digest", func(w *harness.W) {
		const row = "IV-5.3b"
		s := open(w, row, roleMain)
		n := 0
		for _, r := range s.five("projection shape") {
			for i, p := range r.Answer.Projections {
				n++
				ex1, ex2 := vinterview.Outside(p.Keys, vinterview.ProjectionMembers), vinterview.Outside(p.SourceKeys, vinterview.SourceMembers)
				w.Check(len(ex1)+len(ex2) == 0, fmt.Sprintf("%s projection %d has only source {document, member, url, digest} and value", r.Method, i),
					fmt.Sprintf("extra projection members %q, extra source members %q", ex1, ex2), r.Exchange)
			}
		}
		if n == 0 {
			w.Check(false, "the five answers carry projections to inspect", "no projection in any answer", s.cardEx)
		}
	})
}
