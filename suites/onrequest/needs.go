package onrequest

import "github.com/extconf/extconf/harness"

// Needs is the document's static input table: which rows block without which member of documents.on-request (runsuite
// config check reads it; a member may be declared absent under "absent"). Measured against the reference agent
// with only credentials given; a row is listed under the first member it misses.
func (document) Needs() []harness.Need {
	return []harness.Need{
		{Member: "operator.operatorPhones", Empty: true, What: "the operator statement's operatorPhones ([] states that no number is answered by or for the operator)", Rows: []string{"OR-3.4d"}},
		{Member: "operator.consentToActions", What: "the operator statement's consentToActions (and actionSkills, values, actionLog, reverse, limits)", Rows: []string{"OR-3.6", "OR-5.1", "OR-5.7a", "OR-5.7b", "OR-5.7d", "OR-5.7e", "OR-5.7f", "OR-5.7g", "OR-5.7h", "OR-5.8a", "OR-6.1b", "OR-6.1d", "OR-6.1e", "OR-6.1f", "OR-6.2"}},
		{Member: "operator.actionLog", What: "the operator statement's actionLog: who on staff was told of each action", Rows: []string{"OR-5.7d"}},
		{Member: "operator.reverse", What: "the operator statement's reverse: where the staff's reversal is POSTed", Rows: []string{"OR-5.7d"}},
		{Member: "operator.irreversible", Empty: true, What: "the operator statement's irreversible: the steps that cannot be undone ({} for none)", Rows: []string{"OR-5.7g"}},
		{Member: "operator.limits", What: "the operator statement's limits on repeated requests (perAssistant, total)", Rows: []string{"OR-5.7e", "OR-5.7f"}},
		{Member: "operator.values|actingFor", What: "the operator statement's values, or actingFor", Rows: []string{"OR-3.9"}},
		{Member: "actingFor", Empty: true, What: "how an assistant shows it acts for a named person ({} for the harness default)", Rows: []string{"OR-5.3a", "OR-6.1c"}},
		{Member: "operator.attestationLevel|agents.unattested", What: "the operator statement's attestationLevel, or an agent whose operator holds no level-2 attestation", Rows: []string{"OR-5.7c"}},
		{Member: "operator.staffReachable|agents.unstaffed", What: "the operator statement's staffReachable, or an agent where nobody can be reached", Rows: []string{"OR-5.10"}},
	}
}
