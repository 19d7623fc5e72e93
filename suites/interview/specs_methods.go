package interview

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/verify"
	vinterview "github.com/extconf/extconf/refclients/interview"
)

// registerAgentMethods: §4, the five methods.
func registerAgentMethods(e *harness.Env) {
	harness.Spec(e, "IV-4.3", "a skill selector matching no declared id receives the standard refusal with reason out_of_scope", func(w *harness.W) {
		const row = "IV-4.3"
		s := open(w, row, roleMain)
		if len(s.skills) == 0 {
			w.Inapplicable("the card declares no skills, so no selector can be shown to match")
		}
		for _, m := range []string{"interview/usage", "interview/terms"} {
			r := s.answer(m, map[string]any{"skill": s.skills[0]}, "control: the exact declared id")
			w.Control(r.Refusal == nil, m+" with the declared id "+s.skills[0]+" is answered, not refused", r.Observed(), r.Exchange)
			miss := s.ask(m, map[string]any{"skill": "zz-no-such-skill-" + nonce()}, true, "a selector matching no declared id")
			w.Negative(refusalShape(miss) == "", m+" with a selector matching nothing: a JSON-RPC result {refused: true, reason: \"out_of_scope\", detail, …}",
				refusalShape(miss)+"; "+miss.Observed(), miss.Exchange)
		}
	})

	harness.Spec(e, "IV-4.1a", "each of the five interview methods answers under activation by projecting the card as served or a committed proposal (the procedure of section 8)", func(w *harness.W) {
		const row = "IV-4.1a"
		s := open(w, row, roleMain)
		rep := s.procedure(runBy(e))
		step := rep.Steps[0]
		if !step.OK {
			s.blockOnKeys(step.Detail)
		}
		w.Check(step.OK, "§8 step 1: the card is fetched and its JWS signature (A2A §8.4) verifies", step.Detail, s.cardEx)
		for _, m := range vinterview.Methods {
			r := rep.Reply(m)
			ok := r != nil && r.Answer != nil && r.Answer.Malformed == ""
			obs, ex := "not asked", (*a2a.Exchange)(nil)
			if r != nil {
				obs, ex = r.Observed(), r.Exchange
				if r.Answer != nil && r.Answer.Malformed != "" {
					obs = r.Answer.Malformed + ": " + obs
				}
			}
			w.Check(ok, m+", called with the URI activated, returns an answer {question, projections}", obs, ex)
		}
		n := 0
		for _, r := range rep.Replies {
			if r.Answer != nil {
				n += len(r.Answer.Projections)
			}
		}
		for _, c := range rep.Conflicts {
			switch c.Kind {
			case vinterview.ConflictBadSource, vinterview.ConflictUnresolved, vinterview.ConflictUncommitted, vinterview.ConflictUnverified:
				w.Check(false, "every projection is drawn from a published declaration: source.member resolves in the card as served, or the proposal is one the card's terms entry commits to and it verifies",
					c.String()+" (persisted after re-fetching the card and re-asking)", c.Exchange)
			}
		}
		w.Check(n > 0, "the answers carry projections to diff", fmt.Sprintf("%d projections in five answers", n), s.cardEx)
		// The selector answers (§4 rule 3) are answers too: §4 rule 1 "Every answer is a projection of declared bytes".
		_, scs, _ := s.persistent(func(round int) []*vinterview.Reply {
			return s.selectorAnswers([]string{"interview/usage", "interview/terms"}, fmt.Sprintf("selector answers, round %d", round))
		}, vinterview.ConflictBadSource, vinterview.ConflictUnresolved, vinterview.ConflictUncommitted, vinterview.ConflictUnverified)
		for _, c := range scs {
			w.Check(false, "every projection of a selector answer is drawn from a published declaration: source.member resolves in the card as served, or the proposal is one the card's terms entry commits to and it verifies",
				c.String()+" (persisted after re-fetching the card and re-asking)", c.Exchange)
		}
	})

	harness.Spec(e, "IV-4.1a", "the verifier does not treat a card altered after signing as the published declaration", func(w *harness.W) {
		const row = "IV-4.1a"
		s := open(w, row, roleMain)
		if len(s.card.Signatures) == 0 {
			w.Inapplicable("the card carries no signatures (A2A §8.4): there is no signed declaration to alter")
		}
		keys := trustedKeys(e)
		status, _, err := vinterview.CardSignature(w.Ctx(), e.Client, s.url, s.raw, keys, e.Sabotage)
		if err != nil {
			s.blockOnKeys(err.Error())
		}
		w.Control(err == nil, "the card as served verifies under its JWS signature", errText(err), s.cardEx)
		altered, aerr := alterCard(s.raw)
		if aerr != nil {
			w.Failf(s.cardEx, "the card is a JSON object with a description", "%v", aerr)
		}
		status, _, err = vinterview.CardSignature(w.Ctx(), e.Client, s.url, altered, keys, e.Sabotage)
		w.Negative(err != nil, "the interview verifier refuses to diff against the card with its description changed after signing (§7 rule 1, §8 step 1)",
			"accepted: "+status, s.cardEx)
	})

	harness.Spec(e, "IV-4.2a", "repeating an interview call against the unchanged agent returns a JCS-identical result", func(w *harness.W) {
		const row = "IV-4.2a"
		s := open(w, row, roleMain)
		calls := []struct {
			m string
			p map[string]any
		}{{"interview/identity", nil}, {"interview/capabilities", nil}, {"interview/usage", nil}, {"interview/terms", nil}, {"interview/refusals", nil}}
		if len(s.skills) > 0 {
			calls = append(calls, struct {
				m string
				p map[string]any
			}{"interview/usage", map[string]any{"skill": s.skills[0]}}, struct {
				m string
				p map[string]any
			}{"interview/terms", map[string]any{"skill": s.skills[0]}})
		}
		var first []*vinterview.Reply
		var diffs []string
		var diffEx *a2a.Exchange
		for attempt := 1; attempt <= 2; attempt++ {
			first, diffs, diffEx = nil, nil, nil
			cardBefore := s.declared("card before the repeats")
			for round := 1; round <= 3; round++ {
				for i, c := range calls {
					note := fmt.Sprintf("round %d: %s", round, c.m)
					if round == 1 {
						first = append(first, s.answer(c.m, c.p, note))
						continue
					}
					r := s.ask(c.m, c.p, true, note)
					if jcsOf(r) != jcsOf(first[i]) {
						diffs = append(diffs, fmt.Sprintf("%s round %d: %s, first: %s", first[i].Label(), round, clip(jcsOf(r), 200), clip(jcsOf(first[i]), 200)))
						diffEx = r.Exchange
					}
				}
			}
			cardAfter := s.declared("card after the repeats")
			// A changed card is churn (§7 rule 3): the repeats are re-run once against the new declaration.
			if len(diffs) == 0 || sameCard(cardBefore.CardRaw, cardAfter.CardRaw) || vinterview.ChurnAsPersistent(e.Sabotage) {
				break
			}
		}
		w.Check(len(diffs) == 0, "every repeat of each call (same method, params, activation), interleaved with the others, is JCS-identical to the first",
			strings.Join(diffs, "; "), diffEx)
	})

	harness.Spec(e, "IV-4.2b", "interview calls leave the card and an existing task unchanged", func(w *harness.W) {
		const row = "IV-4.2b"
		s := open(w, row, roleMain)
		taskID, _ := s.createTask()
		snap := func(note string) (task, card string, ex *a2a.Exchange) {
			d := s.declared(note + ": the card")
			card = string(canonicalCard(d.CardRaw))
			if taskID != "" {
				_, resp, tex, err := e.Client.GetTask(w.Ctx(), s.ep.URL, taskID, s.ep.Tenant, a2a.Call{Header: s.ep.Header, Note: row + ": " + note + ": GetTask"})
				switch {
				case err != nil:
					task = "GetTask failed: " + err.Error()
				case resp.Error != nil:
					task = fmt.Sprintf("GetTask error %d", resp.Error.Code)
				default:
					b, _ := verify.CanonicalJSON(resp.Result)
					task = string(b)
				}
				ex = tex
			}
			return task, card, ex
		}
		t0, c0, ex0 := snap("snapshot before")
		t1, c1, ex1 := snap("control snapshot, no interview in between")
		w.Control(t0 == t1 && c0 == c1, "with no interview call in between, GetTask and the card read the same twice",
			fmt.Sprintf("task %s → %s; card changed: %v", clip(t0, 150), clip(t1, 150), c0 != c1), ex1)
		for i := 0; i < 2; i++ {
			for _, m := range vinterview.Methods {
				s.ask(m, nil, true, fmt.Sprintf("burst %d: %s", i+1, m))
			}
		}
		t2, c2, ex2 := snap("snapshot after a burst of 10 interview calls")
		if taskID != "" {
			w.Negative(t2 == t0, "GetTask of the task created beforehand is JCS-identical (state and history) before and after 10 interview calls",
				fmt.Sprintf("before %s; after %s", clip(t0, 300), clip(t2, 300)), ex2)
		}
		w.Negative(c2 == c0, "the served card is JCS-identical before and after 10 interview calls", "the card changed", ex0)
	})

	harness.Spec(e, "IV-4.2c", "an interview call creates no task", func(w *harness.W) {
		const row = "IV-4.2c"
		w.UnlessAbsent(listTasksMember) // the operator says ListTasks answers nobody it can name: nothing to observe through
		s := open(w, row, roleMain)
		taskID, sendEx := s.createTask()
		ids, lex := s.listTasks("ListTasks after SendMessage")
		if taskID != "" {
			w.Control(slices.Contains(ids, taskID), "a task created with SendMessage is listed by ListTasks", fmt.Sprintf("task %s not in %v", taskID, ids), lex)
		} else {
			w.Control(lex != nil, "ListTasks answers", "no ListTasks exchange", sendEx)
		}
		for _, m := range vinterview.Methods {
			before, _ := s.listTasks("ListTasks right before " + m)
			r := s.answer(m, nil, m)
			after, aex := s.listTasks("ListTasks right after " + m)
			w.Negative(!isTask(r.Result), m+"'s result is the answer object, never a Task", r.Observed(), r.Exchange)
			w.Negative(sameIDs(before, after), "ListTasks lists the same task ids right before and right after "+m,
				fmt.Sprintf("before %v, after %v", before, after), aex)
		}
	})

	harness.Spec(e, "IV-4.2d", "an interview call enqueues nothing that later becomes a task", func(w *harness.W) {
		const row = "IV-4.2d"
		w.UnlessAbsent(listTasksMember) // the operator says ListTasks answers nobody it can name: nothing to observe through
		s := open(w, row, roleMain)
		start := time.Now()
		taskID, _ := s.createTask()
		var lex *a2a.Exchange
		listed := false
		var ids []string
		for !listed && time.Since(start) < 2*time.Second {
			ids, lex = s.listTasks("ListTasks until the new task shows")
			listed = taskID == "" || slices.Contains(ids, taskID)
			if !listed {
				time.Sleep(5 * time.Millisecond)
			}
		}
		settle := settleInterval + 3*time.Since(start)
		w.Control(listed, "a task created with SendMessage becomes visible in ListTasks", fmt.Sprintf("task %s not listed within 2s", taskID), lex)
		before := ids
		for _, m := range append(append([]string(nil), vinterview.Methods...), "interview/x-settle-probe") {
			s.ask(m, nil, true, "burst: "+m)
		}
		deadline := time.Now().Add(settle)
		var fresh []string
		for len(fresh) == 0 && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
			ids, lex = s.listTasks("ListTasks during the settle interval")
			fresh = newIDs(before, ids)
		}
		w.Negative(len(fresh) == 0, fmt.Sprintf("no task appears in ListTasks within %s after a burst of interview calls", settle.Round(time.Millisecond)),
			fmt.Sprintf("new tasks %v", fresh), lex)
	})

	harness.Spec(e, "IV-4.4", "interview/terms projects only proposals the card's terms entry commits to", func(w *harness.W) {
		const row = "IV-4.4"
		s := open(w, row, roleMain)
		checkTerms(s)
	})

	harness.Spec(e, "IV-4.4", "an agent without a terms extension answers interview/terms with no projection", func(w *harness.W) {
		const row = "IV-4.4"
		s := open(w, row, roleNoTerms)
		if _, ok := s.card.Extension(termsURI); ok {
			w.Inapplicable("the agent in role " + roleNoTerms + " declares the terms extension")
		}
		checkTerms(s)
	})

	harness.Spec(e, "IV-4.6", "an agent without a terms extension answers interview/terms with no projection and declared false", func(w *harness.W) {
		const row = "IV-4.6"
		s := open(w, row, roleNoTerms)
		if _, ok := s.card.Extension(termsURI); ok {
			w.Inapplicable("the agent in role " + roleNoTerms + " declares the terms extension")
		}
		r := s.ask("interview/terms", nil, true, "interview/terms on an agent with no terms extension")
		ok := r.Answer != nil && r.Answer.Malformed == "" && len(r.Answer.Projections) == 0 && r.Answer.Declared != nil && !*r.Answer.Declared
		w.Check(ok, "an answer {question: \"terms\", declared: false, projections: []}, not a refusal or an error", r.Observed(), r.Exchange)
	})

	harness.Spec(e, "IV-4.5", "interview/refusals includes only grounds declared in the card or a committed proposal", func(w *harness.W) {
		const row = "IV-4.5"
		s := open(w, row, roleMain)
		replies, cs, _ := s.persistent(func(round int) []*vinterview.Reply {
			return []*vinterview.Reply{s.answer("interview/refusals", nil, fmt.Sprintf("round %d", round))}
		}, vinterview.ConflictBadSource, vinterview.ConflictUnresolved, vinterview.ConflictUncommitted, vinterview.ConflictNotAnEntry, vinterview.ConflictUnverified)
		bad := map[int]vinterview.Conflict{}
		for _, c := range cs {
			bad[c.Index] = c
		}
		r := replies[0]
		for i, p := range r.Answer.Projections {
			c, failed := bad[i]
			w.Check(!failed, fmt.Sprintf("refusals projection %d (%s %s) is a ground declared in the card as served or in a committed proposal", i, p.Source.Document, p.Source.Member),
				c.Detail, r.Exchange)
		}
		if len(r.Answer.Projections) == 0 {
			w.Check(true, "no ground beyond the declared skills is claimed", "", r.Exchange)
		}
	})
}
