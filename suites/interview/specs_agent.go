package interview

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	. "github.com/onsi/ginkgo/v2"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/verify"
	vinterview "github.com/extconf/extconf/refclients/interview"
)

// settleInterval bounds how long IV-4.2d waits for work an interview call might have enqueued; the agent's own
// SendMessage latency (measured in the spec's control) extends it.
const settleInterval = 120 * time.Millisecond

func registerAgentSpecs(e *harness.Env) {
	registerAgentDeclaration(e)
	registerAgentMethods(e)
	registerAgentAnswerShape(e)
	registerAgentRefusals(e)
	registerAgentRefusalProcedure(e)
}

// echoesInput reports whether the refusal body carries a piece of the request the harness sent: any 16-byte window
// of the input that the card's declared bytes do not contain (so a declared skill id that happens to share a word
// with the input, such as "instructions", is never read as an echo).
func echoesInput(body, input string, card []byte) bool {
	const win = 16
	for i := 0; i+win <= len(input); i++ {
		piece := input[i : i+win]
		if strings.Contains(body, piece) && !strings.Contains(string(card), piece) {
			return true
		}
	}
	return false
}

// checkTerms is IV-4.4 on one agent: with a terms entry, every projection is a committed, verifying proposal;
// without one, there is none.
func checkTerms(s *session) {
	const row = "IV-4.4"
	w := s.w
	r := s.answer("interview/terms", nil, "terms")
	d := s.declared("the card's terms entries")
	if _, ok := d.Card.Extension(termsURI); !ok {
		w.Negative(len(r.Answer.Projections) == 0, "the card carries no terms extension entry: interview/terms answers with no projection",
			fmt.Sprintf("%d projections: %s", len(r.Answer.Projections), clip(string(r.Result), 300)), r.Exchange)
		declared := "absent"
		if r.Answer.Declared != nil {
			declared = fmt.Sprint(*r.Answer.Declared)
		}
		AddReportEntry("informational (§4 rule 4, not graded)", "declared: "+declared+" (the document's example answers false)", ReportEntryVisibilityFailureOrVerbose)
		return
	}
	w.Check(d.EntriesErr == nil, "the card's terms entry lists its proposals (params.proposals)", errText(d.EntriesErr), d.CardExchange)
	var all []sourced
	for _, q := range append([]*vinterview.Reply{r}, s.selectorAnswers([]string{"interview/terms"}, "terms")...) {
		for _, p := range q.Answer.Projections {
			all = append(all, sourced{p, q})
		}
	}
	for i, sp := range all {
		p := sp.Projection
		e, listed := d.EntryByURL(p.Source.URL)
		w.Negative(p.Source.Document == "proposal" && listed,
			fmt.Sprintf("%s projection %d has source.document \"proposal\" and a url listed in the card's terms entry", sp.r.Label(), i),
			fmt.Sprintf("document %q url %q; the card lists %s", p.Source.Document, p.Source.URL, entriesText(d)), sp.r.Exchange)
		if listed {
			res, _ := d.Proposal(w.Ctx(), s.e.Client, e, s.e.Sabotage)
			w.Check(res.Err == nil, "the committed proposal at "+e.URL+" verifies (terms §6)", fmt.Sprintf("step %q: %v", res.Step, res.Err), res.Exchange)
		}
	}
	if len(r.Answer.Projections) == 0 {
		w.Check(true, "no terms projected", "", r.Exchange)
	}
}

// proposalSources returns the proposal projections of interview/terms, with and without a skill selector (the
// selector answers are projections too: §4 rule 4 "MUST NOT fabricate a terms answer from anything other than
// committed proposals"); rows about them are inapplicable when there are none to look at.
func proposalSources(s *session) []sourced {
	if _, ok := s.card.Extension(termsURI); !ok {
		s.w.Inapplicable("the card declares no terms extension, so no answer may cite a proposal")
	}
	replies := append([]*vinterview.Reply{s.answer("interview/terms", nil, "terms")}, s.selectorAnswers([]string{"interview/terms"}, "terms")...)
	var out []sourced
	for _, r := range replies {
		for _, p := range r.Answer.Projections {
			if p.Source.Document == "proposal" {
				out = append(out, sourced{p, r})
			}
		}
	}
	if len(out) == 0 {
		s.w.Inapplicable("interview/terms cites no proposal source (IV-4.4 judges whether it should)")
	}
	return out
}

// sourced is a projection and the reply that carried it.
type sourced struct {
	vinterview.Projection
	r *vinterview.Reply
}

// createTask sends the first request text of the first skill (operator's requests, else the skill's examples)
// and waits briefly for a terminal state. It returns "" when the agent answered with a message.
func (s *session) createTask() (string, *a2a.Exchange) {
	text := ""
	for _, sk := range s.card.Skills {
		if rs := s.e.Target.Config.Requests[sk.ID]; len(rs) > 0 {
			text = rs[0]
		} else if len(sk.Examples) > 0 {
			text = sk.Examples[0]
		}
		if text != "" {
			break
		}
	}
	if text == "" {
		s.w.Blocked("no request text to create a task with: the card's skills have no examples; supply requests.<skill id> in the target configuration")
	}
	req := a2a.SendMessageRequest{Message: a2a.Message{MessageID: "iv-" + nonce(), Role: a2a.RoleUser, Parts: []a2a.Part{a2a.TextPart(text)}}, Tenant: s.ep.Tenant}
	res, resp, ex, err := s.e.Client.SendMessage(s.w.Ctx(), s.ep.URL, req, a2a.Call{Header: s.ep.Header, Note: s.row + ": SendMessage to create a task"})
	if err != nil || resp.Error != nil {
		obs := "JSON-RPC error"
		if err != nil {
			obs = err.Error()
		} else {
			obs = fmt.Sprintf("JSON-RPC error %d %s", resp.Error.Code, resp.Error.Message)
		}
		s.w.Control(false, "SendMessage with the skill's request text succeeds (ordinary traffic)", obs, ex)
	}
	if res.Task == nil {
		return "", ex
	}
	id := res.Task.ID
	for i := 0; i < 200 && !a2a.IsTerminal(res.Task.Status.State); i++ {
		time.Sleep(5 * time.Millisecond)
		t, _, _, err := s.e.Client.GetTask(s.w.Ctx(), s.ep.URL, id, s.ep.Tenant, a2a.Call{Header: s.ep.Header, Note: s.row + ": wait for the task to finish"})
		if err == nil && t != nil {
			res.Task = t
		}
	}
	return id, ex
}

func (s *session) listTasks(note string) ([]string, *a2a.Exchange) {
	raw, resp, ex, obs := askListTasks(s.w.Ctx(), s.e.Client, s.ep, 100, s.row+": "+note)
	if obs != "" {
		if ex == nil || ex.Status == 0 { // no answer: the agent's reachability, not a capability to state
			s.w.Blocked("ListTasks, which this row observes tasks through, got no answer (" + obs + ")")
		}
		s.w.Need(listTasksMember, false, listTasksRemedy(obs+", "+ex.Summary(), ex, resp)+"; or declare documents.interview.absent.listTasks with the reason")
	}
	var lt struct {
		Tasks []struct {
			ID string `json:"id"`
		} `json:"tasks"`
	}
	_ = json.Unmarshal(raw, &lt)
	var ids []string
	for _, t := range lt.Tasks {
		ids = append(ids, t.ID)
	}
	return ids, ex
}

// refusalShape checks §6's refusal shape and reason; "" when it holds.
func refusalShape(r *vinterview.Reply) string {
	switch {
	case r.Err != nil || r.RPCError != nil:
		return "not a result"
	case r.Answer != nil:
		return "an answer (it carries question)"
	case r.Refusal == nil:
		return "no refused member"
	case r.Refusal.Malformed != "":
		return r.Refusal.Malformed
	case !r.Refusal.Refused:
		return "refused is not true"
	case r.Refusal.Reason != "out_of_scope":
		return fmt.Sprintf("reason %q", r.Refusal.Reason)
	case r.Refusal.Detail == nil:
		return "no detail"
	}
	if extra := vinterview.Outside(r.Refusal.Keys, vinterview.RefusalMembers); len(extra) > 0 {
		return fmt.Sprintf("extra members %q beside refused, reason, detail, declared_skills (§2: the refusal shape changes only with a new version segment; §10: refusals are not weakened for friendliness)", extra)
	}
	return ""
}

func rawExtension(raw []byte, uri string) (map[string]json.RawMessage, bool) {
	var card struct {
		Capabilities struct {
			Extensions []map[string]json.RawMessage `json:"extensions"`
		} `json:"capabilities"`
	}
	if json.Unmarshal(raw, &card) != nil {
		return nil, false
	}
	for _, x := range card.Capabilities.Extensions {
		var u string
		if json.Unmarshal(x["uri"], &u) == nil && u == uri {
			return x, true
		}
	}
	return nil, false
}

// alterCard changes the card's description after signing, keeping its signatures.
func alterCard(raw []byte) ([]byte, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	var d string
	_ = json.Unmarshal(m["description"], &d)
	m["description"], _ = json.Marshal(d + " Now also files tax returns.")
	return json.Marshal(m)
}

// canonicalCard is the card's JCS form without signatures: an ECDSA re-signature of the same card is no change.
func canonicalCard(raw []byte) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return raw
	}
	delete(m, "signatures")
	b, _ := json.Marshal(m)
	c, err := verify.CanonicalJSON(b)
	if err != nil {
		return raw
	}
	return c
}

func sameCard(a, b []byte) bool { return bytes.Equal(canonicalCard(a), canonicalCard(b)) }

func isTask(result json.RawMessage) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(result, &m) != nil {
		return false
	}
	_, task := m["task"]
	_, id := m["id"]
	_, status := m["status"]
	return task || (id && status)
}

func sameIDs(a, b []string) bool {
	return len(newIDs(a, b)) == 0 && len(newIDs(b, a)) == 0
}

func newIDs(before, after []string) []string {
	var out []string
	for _, id := range after {
		if !slices.Contains(before, id) {
			out = append(out, id)
		}
	}
	return out
}

func entriesText(d *vinterview.Declared) string {
	var parts []string
	for _, e := range d.Entries {
		parts = append(parts, e.URL+" "+e.Digest)
	}
	if len(parts) == 0 {
		return "no entries"
	}
	return strings.Join(parts, ", ")
}

// variants are selectors a friendly matcher would accept for id: case, whitespace, prefix, suffix, width.
func variants(id string, declared []string) []string {
	var out []string
	add := func(v string) {
		if v != id && v != "" && !slices.Contains(declared, v) && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	r, size := utf8.DecodeRuneInString(id)
	add(string(unicode.ToUpper(r)) + id[size:])
	add(strings.ToUpper(id))
	add(" " + id)
	add(id + "\n")
	if len(id) > 1 {
		add(id[:len(id)-1])
	}
	add(id + "s")
	if r >= '!' && r <= '~' {
		add(string(r+0xFEE0) + id[size:]) // the fullwidth form of the first character
	}
	return out
}

// nearMiss drops one character from the middle of id: edit distance 1, not a prefix.
func nearMiss(id string, declared []string) string {
	if len(id) < 3 {
		return id + "xx"
	}
	m := id[:len(id)/2] + id[len(id)/2+1:]
	if slices.Contains(declared, m) {
		return id + "xx"
	}
	return m
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
