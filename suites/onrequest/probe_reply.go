package onrequest

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	vonrequest "github.com/extconf/extconf/refclients/onrequest"
)

// reachedSkill reports whether the answer is about skillID: for an activated client the object names it (any
// status, anywhere §6.2 puts it); otherwise the text gives the entry's address or the reply carries a result.
// It is the positive control before a refusal is graded: an answer about something else never passes a row.
func reachedSkill(o outcome, e vonrequest.Entry) (bool, string) {
	if o.err != "" {
		return false, o.String()
	}
	if obj := o.reply.Object(); obj != nil && obj.SkillID == e.ID {
		return true, ""
	}
	for _, obj := range o.reply.ArtifactObjects() {
		if obj.SkillID == e.ID {
			return true, ""
		}
	}
	if o.gives(o.reply.AllText(), e.PersonEntry) || saysOnRequest(o) {
		return true, ""
	}
	// The operator's own value for this skill is the strongest proof that the reply is about it (a leak is then
	// graded by the row, not blocked by its control).
	if o.stated && len(o.values) > 0 && len(valuesIn(o, o.values)) > 0 {
		return true, ""
	}
	return false, o.String()
}

// saysOnRequest reports a text that refers the person in the document's terms (the operator gives it to the
// person who asks), with no result attached: a referral in words even when the address is missing.
func saysOnRequest(o outcome) bool {
	giving, _, _ := readArtifacts(o)
	return len(giving) == 0 && vonrequest.MatchAny(o.ph().OperatorGives, o.reply.Text()) != ""
}

// readArtifacts sorts the reply's artifacts (by index): giving (a given-on-opt-in object, a stated value or an
// amount of money in its text), referring (a referral object, or text that refers in words or gives an address,
// or nothing to read), unclear (anything else: text the harness cannot classify). An Artifact is not by itself
// information: a referral may travel in one.
func readArtifacts(o outcome) (giving, referring, unclear []int) {
	for i, art := range o.reply.Artifacts() {
		obj := vonrequest.ReadObject(art.Metadata)
		var texts []string
		data := false
		for _, p := range art.Parts {
			if p.Text != nil {
				texts = append(texts, *p.Text)
			} else {
				data = true
			}
		}
		text := strings.Join(texts, "\n")
		stated := false
		for _, v := range o.values {
			stated = stated || vonrequest.ContainsValue(text, v)
		}
		ph := o.ph()
		switch {
		case obj != nil && obj.Status == vonrequest.StatusGivenOnOptIn, stated, len(vonrequest.MoneyAmounts(text)) > 0:
			giving = append(giving, i)
		case obj != nil && (obj.Status == vonrequest.StatusOnRequest || obj.Status == vonrequest.StatusActionReferred),
			vonrequest.MatchAny(ph.OperatorGives, text) != "", vonrequest.MatchAny(ph.NotDone, text) != "",
			len(vonrequest.TextAddresses(text)) > 0 && !data, strings.TrimSpace(text) == "" && !data:
			referring = append(referring, i)
		default:
			unclear = append(unclear, i)
		}
	}
	return giving, referring, unclear
}

// artifactTexts quotes the artifacts at idx, for a blocked verdict.
func artifactTexts(o outcome, idx []int) string {
	var out []string
	for _, i := range idx {
		b, _ := json.Marshal(o.reply.Artifacts()[i])
		out = append(out, clip(string(b), 300))
	}
	return strings.Join(out, "; ")
}

// mismatch is the blocked reason when an assistant acting for a named person got the answer a client acting for
// nobody gets: the agent may not recognise the assertion as configured, or lawfully decline the MAY; neither
// is a failure.
func (s *suite) mismatch(w *harness.W, o outcome, what string) string {
	af, _ := json.Marshal(s.actingFor(w))
	return fmt.Sprintf("the agent answered the assistant acting for %s as it answers a client acting for nobody, so %s cannot be seen: "+
		"either it does not recognise the assertion as configured (actingFor %s; OR-5.5 and §9 item 1 leave the form open) or it declines "+
		"what OR-5.4/OR-5.6 only permit (MAY); set actingFor to the agent's convention. Reply: %s", o.person, what, af, o)
}

// undeclaredAction blocks when an entry the harness reads as information (no completion) gets a reply that reads
// as an action referral and the operator has not said which skills are actions (actionSkills absent): the entry's
// kind is the operator's to state, not the harness's to guess.
func (s *suite) undeclaredAction(w *harness.W, row string, e vonrequest.Entry, o outcome) {
	st := s.loadStatement(w, row)
	if isAction(e, st) || (st != nil && st.ActionSkills != nil) || o.err != "" {
		return
	}
	obj := o.reply.Object()
	action := (obj != nil && obj.Status == vonrequest.StatusActionReferred) || o.reply.State() == a2a.StateRejected ||
		(vonrequest.MatchAny(o.ph().NotDone, o.reply.Text()) != "" && vonrequest.MatchAny(o.ph().OperatorGives, o.reply.Text()) == "") ||
		(o.person != "" && !isGiven(o) && !isReferral(o, e)) // for a person: neither information given nor referred
	if action {
		w.Blocked(fmt.Sprintf("entry %s has no completion and the operator statement does not say whether it changes something (actionSkills absent); "+
			"the reply reads as an action (referred, or done), so it is not graded as information. Reply: %s", e.ID, o))
	}
}

// isReferral reports whether the answer refers the person elsewhere: a referral object (activated) or, in words,
// the entry's address with no result attached.
func isReferral(o outcome, e vonrequest.Entry) bool {
	if o.err != "" {
		return false
	}
	if obj := o.reply.Object(); obj != nil && (obj.Status == vonrequest.StatusOnRequest || obj.Status == vonrequest.StatusActionReferred) {
		return true
	}
	// A given-on-opt-in object, wherever it is, or the operator's own value for the skill, shows the information
	// was given: its carrier is OR-6.1's to grade, never a reason to read the reply as a referral.
	if len(givenObjects(o)) > 0 || (o.stated && len(valuesIn(o, o.values)) > 0) {
		return false
	}
	giving, _, _ := readArtifacts(o)
	return len(giving) == 0 && (o.gives(o.reply.Text(), e.PersonEntry) || saysOnRequest(o))
}

// carriedOut reports whether an action request was carried out or accepted: answered, not referred, not
// rejected.
func carriedOut(o outcome, e vonrequest.Entry) bool {
	return o.err == "" && !isReferral(o, e) && o.reply.State() != a2a.StateRejected && o.reply.State() != a2a.StateFailed
}

// valuesIn returns the configured values found anywhere in the response bytes (text, data, metadata).
func valuesIn(o outcome, values []string) []string {
	if o.ex == nil {
		return nil
	}
	// JSON escapes (\u00a3 for £, …) do not hide a value: they are read as the characters they stand for.
	body := jsonEscape.ReplaceAllStringFunc(string(o.ex.ResponseBody), func(m string) string {
		n, err := strconv.ParseUint(m[2:], 16, 32)
		if err != nil {
			return m
		}
		return string(rune(n))
	})
	var found []string
	for _, v := range values {
		if vonrequest.ContainsValue(body, v) {
			found = append(found, v)
		}
	}
	return found
}

var jsonEscape = regexp.MustCompile(`\\u[0-9a-fA-F]{4}`)
