package onrequest

import (
	"errors"
	"fmt"
	"strings"

	"github.com/extconf/extconf/sabotage"
)

// Client-side toggles the relay honours (registered in sabotage/onrequest.go).
const (
	toggleRelayDeferredDone = "or.client-relays-deferred-as-done"
	toggleRelayOtherSource  = "or.client-presents-other-source-value"
)

// RelayInput is what an assistant holds when it relays an agent's reply to the person it acts for.
type RelayInput struct {
	Operator string // AgentCard.provider.organization
	SkillID  string // the skill asked for
	Entry    Entry  // the card's params.skills entry for it (zero when the skill is not listed)
	Reply    Reply
}

// OtherSource is a value for the same item that the assistant found elsewhere.
type OtherSource struct{ Source, Value string }

// Relay outcomes (what the relay understood the reply to be).
const (
	RelayReferred       = "referred"        // on-request: ask the operator
	RelayActionReferred = "action-referred" // not done: ask the operator
	RelayGiven          = "given"           // information given on opt-in
	RelayDone           = "done"            // an in-conversation action carried out
	RelayPending        = "pending"         // an accepted action not yet done (deferred, or waiting)
	RelayAnswer         = "answer"          // any other answer, passed on as the operator's words
)

// RelayOutcome classifies a reply the way the relay reads it (step 2 of Relay).
func RelayOutcome(in RelayInput) (string, error) {
	r := in.Reply
	if r.Message == nil && r.Task == nil {
		return "", errors.New("relay step 1 (read the reply): it holds neither a Message nor a Task")
	}
	if o := r.Object(); o != nil && o.Problem == "" {
		switch o.Status {
		case StatusOnRequest:
			return RelayReferred, nil
		case StatusActionReferred:
			return RelayActionReferred, nil
		}
	}
	for _, o := range r.ArtifactObjects() {
		if o.Status == StatusGivenOnOptIn {
			return RelayGiven, nil
		}
	}
	pe := in.Entry.PersonEntry
	referral := pe != "" && TextGivesAddress(r.Text(), pe) && len(r.Artifacts()) == 0
	switch {
	case in.Entry.IsAction() && (referral || r.State() == "TASK_STATE_REJECTED"):
		return RelayActionReferred, nil
	case in.Entry.IsAction() && in.Entry.Completion == CompletionDeferred:
		return RelayPending, nil
	case in.Entry.IsAction() && r.State() == "TASK_STATE_COMPLETED":
		return RelayDone, nil
	case in.Entry.IsAction() && r.Task != nil:
		return RelayPending, nil
	case referral:
		return RelayReferred, nil
	case in.Entry.ID != "" && len(r.Artifacts()) > 0:
		return RelayGiven, nil
	}
	return RelayAnswer, nil
}

// Relay renders an agent's reply for the person an assistant acts for (OR-5.8, OR-6.3, OR-6.4): a
// referral gives the operator's address and never fills the gap with another source's value; information given
// on opt-in is said to come from the operator, on request; an accepted action is said to be done only when it was
// carried out in the conversation, never when it is deferred.
func Relay(in RelayInput, others []OtherSource, set sabotage.Faults) (string, error) {
	outcome, err := RelayOutcome(in)
	if err != nil {
		return "", err
	}
	op := strings.TrimSpace(in.Operator)
	if op == "" {
		op = "The operator"
	}
	pe := in.Entry.PersonEntry
	if o := in.Reply.Object(); o != nil && o.PersonEntry != "" {
		pe = o.PersonEntry
	}
	var b strings.Builder
	switch outcome {
	case RelayReferred, RelayActionReferred:
		if pe == "" {
			return "", fmt.Errorf("relay step 3 (render a referral): no personEntry for skill %q in the reply or the card", in.SkillID)
		}
		if outcome == RelayReferred {
			fmt.Fprintf(&b, "%s gives this to the person who asks. You can ask them here: %s", op, pe)
		} else {
			fmt.Fprintf(&b, "%s did not do this. You can ask them here: %s", op, pe)
		}
		if sabotage.From(set).On(sabotage.ORClientPresentsOtherSourceValue) {
			for _, o := range others {
				fmt.Fprintf(&b, "\n%s charges %s.", op, o.Value)
			}
		} else if len(others) > 0 {
			// OR-6.3: another source's value is not the operator's; the relay leaves it out rather than risk it
			// being read as the operator's.
			fmt.Fprintf(&b, "\nFigures found elsewhere are not shown: only %s can say what applies.", op)
		}
	case RelayGiven:
		text := in.Reply.ArtifactText()
		if text == "" {
			text = in.Reply.Text()
		}
		fmt.Fprintf(&b, "From %s, on request: %s", op, text)
		if pe != "" {
			fmt.Fprintf(&b, "\nTo follow up, ask them here: %s", pe)
		}
	case RelayDone:
		fmt.Fprintf(&b, "Done. %s says: %s", op, in.Reply.Text())
	case RelayPending:
		if sabotage.From(set).On(sabotage.ORClientRelaysDeferredAsDone) {
			fmt.Fprintf(&b, "Done. %s says: %s", op, in.Reply.Text())
			break
		}
		// OR-5.8: the agent's own words are not repeated, so a wrong "done" from the agent cannot reach the person.
		fmt.Fprintf(&b, "%s has your request, but it is not finished yet: a member of their staff still has to act on it.", op)
		if pe != "" {
			fmt.Fprintf(&b, " To ask about it: %s", pe)
		}
	default:
		fmt.Fprintf(&b, "%s says: %s", op, in.Reply.AllText())
	}
	return b.String(), nil
}

// AttributedToOperator is the check OR-6.3 puts on a relay's output: the sentences of text that carry value, and
// whether any of them leaves it unattributed to one of the other sources, so that it reads as the operator's answer
// about the operator's item.
func AttributedToOperator(text, value string, otherSources []string) (sentences []string, attributed bool) {
	for _, s := range splitSentences(text) {
		if !ContainsValue(s, value) {
			continue
		}
		sentences = append(sentences, s)
		namesOther := false
		for _, o := range otherSources {
			if o != "" && strings.Contains(strings.ToLower(s), strings.ToLower(o)) {
				namesOther = true
			}
		}
		if !namesOther {
			attributed = true
		}
	}
	return sentences, attributed
}

func splitSentences(text string) []string {
	var out []string
	start := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		end := c == '\n'
		if (c == '.' || c == '!' || c == '?') && (i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\n') {
			end = true
		}
		if end {
			if s := strings.TrimSpace(text[start : i+1]); s != "" {
				out = append(out, s)
			}
			start = i + 1
		}
	}
	if s := strings.TrimSpace(text[start:]); s != "" {
		out = append(out, s)
	}
	return out
}
