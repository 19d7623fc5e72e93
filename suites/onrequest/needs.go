package onrequest

import (
	"encoding/json"
	"strings"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	vonrequest "github.com/extconf/extconf/refclients/onrequest"
)

// Needs is the document's static input table: which rows block without which member of documents.on-request (runsuite
// config check reads it; a member may be declared absent under "absent"). Measured against the reference agent
// with only credentials given; a row is listed under the first member it misses. The action members are Derived:
// they are needed only where the card declares an action (actionNeeds), since every row they unblock is about one.
func (document) Needs() []harness.Need {
	return []harness.Need{
		{Member: "operator.operatorPhones", Empty: true, What: "the operator statement's operatorPhones ([] states that no number is answered by or for the operator)", Rows: []string{"OR-3.4d"}},
		{Member: "operator.consentToActions", Derived: true, What: "the operator statement's consentToActions (and actionSkills, values, actionLog, reverse, limits); asked only when the card declares an action (an entry with completion, or one actionSkills names)", Rows: []string{"OR-3.6", "OR-5.1", "OR-5.7a", "OR-5.7b", "OR-5.7d", "OR-5.7e", "OR-5.7f", "OR-5.7g", "OR-5.7h", "OR-5.8a", "OR-6.1b", "OR-6.1d", "OR-6.1e", "OR-6.1f", "OR-6.2"}},
		{Member: "operator.actionLog", Derived: true, What: "the operator statement's actionLog: who on staff was told of each action", Rows: []string{"OR-5.7d"}},
		{Member: "operator.reverse", Derived: true, What: "the operator statement's reverse: where the staff's reversal is POSTed", Rows: []string{"OR-5.7d"}},
		{Member: "operator.irreversible", Empty: true, Derived: true, What: "the operator statement's irreversible: the steps that cannot be undone ({} for none)", Rows: []string{"OR-5.7g"}},
		{Member: "operator.limits", Derived: true, What: "the operator statement's limits on repeated requests (perAssistant, total)", Rows: []string{"OR-5.7e", "OR-5.7f"}},
		{Member: "operator.values|actingFor", What: "the operator statement's values, or actingFor", Rows: []string{"OR-3.9"}},
		{Member: "actingFor", Empty: true, What: "how an assistant shows it acts for a named person ({} for the harness default)", Rows: []string{"OR-5.3a", "OR-6.1c"}},
		{Member: "operator.attestationLevel|agents.unattested", What: "the operator statement's attestationLevel, or an agent whose operator holds no level-2 attestation", Rows: []string{"OR-5.7c"}},
		{Member: "operator.staffReachable|agents.unstaffed", What: "the operator statement's staffReachable, or an agent where nobody can be reached", Rows: []string{"OR-5.10"}},
	}
}

// actionMembers are the members only a card that declares an action needs, in the order the action rows ask for
// them (a row is listed under the first one missing).
var actionMembers = map[string]bool{"operator.consentToActions": true, "operator.actionLog": true,
	"operator.reverse": true, "operator.irreversible": true, "operator.limits": true}

// actionNeeds is what a card's action rows need beyond the static table: the action members not given in sec,
// none when the card declares no action (no entry has completion, the operator's actionSkills names none): OR-3.6
// and §5.4 are about skills that change something, and those rows are then inapplicable (requireConsent).
func actionNeeds(card *a2a.AgentCard, sec map[string]any) []harness.Need {
	raw, err := json.Marshal(card)
	if err != nil {
		return nil
	}
	op, _ := sec["operator"].(map[string]any)
	var st statement
	if b, err := json.Marshal(op); err == nil && op != nil {
		_ = json.Unmarshal(b, &st)
	}
	decl, err := vonrequest.FindDeclaration(raw)
	if err != nil || decl == nil {
		return nil
	}
	if decl.EntriesProblem == "" && !declaresAction(decl.Entries, &st) {
		return nil
	}
	var out []harness.Need
	for _, n := range (document{}).Needs() {
		if !actionMembers[n.Member] {
			continue
		}
		name := strings.TrimPrefix(n.Member, "operator.")
		v, given := op[name]
		if n.Member == "operator.consentToActions" {
			given = v == true // the run asks for actions only with consent
		}
		if !given {
			n.Derived = false
			out = append(out, n)
		}
	}
	return out
}

// declaresAction reports an entry read as an action (isAction), or one whose members cannot be read (then what it
// is stays unknown and the action rows keep their needs).
func declaresAction(entries []vonrequest.Entry, st *statement) bool {
	for _, e := range entries {
		if len(e.TypeProblems) > 0 || isAction(e, st) {
			return true
		}
	}
	return false
}
