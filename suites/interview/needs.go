package interview

import (
	"context"
	"fmt"
	"net/http"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/target"
	vinterview "github.com/extconf/extconf/refclients/interview"
)

// listTasksMember is the input IV-4.2c/d observe through: ListTasks answering the run's caller. It is not a value
// but a capability of the deployment; the operator meets it with a credential ListTasks accepts
// (documents.interview.principal) or declares it absent (an agent that lists tasks to nobody it can name).
const listTasksMember = "listTasks"

var listTasksRows = []string{"IV-4.2c", "IV-4.2d"}

// Needs (harness.Needer): the rows that observe through ListTasks. Derived: config check probes ListTasks
// (DeriveSection) instead of reading the section.
func (document) Needs() []harness.Need {
	return []harness.Need{{Member: listTasksMember, Derived: true, Rows: listTasksRows,
		What: "ListTasks answering the run's caller (IV-4.2c/d observe through it that interview calls create no task): when it refuses the harness, a credential it accepts in documents.interview.principal"}}
}

// DeriveSection (harness.SectionDeriver): request texts from the skills' examples, as the run asks by default, and
// whether ListTasks answers the caller the run will use, as IV-4.2c/d need.
func (document) DeriveSection(ctx context.Context, cl *a2a.Client, _ string, card *a2a.AgentCard, cfg target.Config, sec map[string]any) ([]string, []harness.Need) {
	notes := harness.ExampleRequests(card, sec)
	if why := listTasksRefused(ctx, cl, card, cfg); why != "" {
		return notes, []harness.Need{{Member: listTasksMember, Rows: listTasksRows, What: why}}
	}
	return notes, nil
}

// listTasksRefused asks ListTasks as the run will (the interview's JSON-RPC interface, principal A's credential
// when the card requires one) and says why the rows cannot observe through it; "" when it answers or when the
// rows will not reach it (no interview declared, no endpoint, no credential: the run blocks them on that).
func listTasksRefused(ctx context.Context, cl *a2a.Client, card *a2a.AgentCard, cfg target.Config) string {
	if cl == nil || card == nil {
		return ""
	}
	if _, ok := card.Extension(vinterview.URI); !ok {
		return ""
	}
	ep, err := vinterview.EndpointOf(card)
	if err != nil {
		return ""
	}
	call := a2a.Call{Note: "config: ListTasks, which IV-4.2c/d observe through"}
	if len(card.SecurityRequirements) > 0 {
		p, ok := cfg.PrincipalOf(docID, "A")
		if !ok {
			return ""
		}
		call.Header = http.Header{p.Header: []string{p.Value}}
	}
	params := map[string]any{"pageSize": 1}
	if ep.Tenant != "" {
		params["tenant"] = ep.Tenant
	}
	_, resp, ex, err := cl.ListTasks(ctx, ep.URL, params, call)
	switch {
	case ex == nil || ex.Status == 0:
		return "" // no answer: the run blocks on reachability, not on this member
	case err == nil && resp != nil && resp.Error == nil:
		return ""
	case resp != nil && resp.Error != nil:
		return listTasksRemedy(fmt.Sprintf("JSON-RPC error %d %s, %s", resp.Error.Code, resp.Error.Message, ex.Summary()), ex, resp)
	default:
		return listTasksRemedy(fmt.Sprintf("%v, %s", err, ex.Summary()), ex, resp)
	}
}

// listTasksRemedy is what the operator can do when ListTasks does not answer: name a credential it accepts when it
// refuses this caller (config check adds how to declare the member absent; the run's detail says it too).
func listTasksRemedy(obs string, ex *a2a.Exchange, resp *a2a.RPCResponse) string {
	why := "ListTasks, which IV-4.2c/d observe through, does not answer the run's caller (" + obs + ")"
	if ex != nil && (ex.Status == http.StatusUnauthorized || ex.Status == http.StatusForbidden) ||
		resp != nil && resp.Error != nil && (resp.Error.Code == -31401 || resp.Error.Code == -31403) {
		why += "; it refuses this caller: name a credential it accepts in documents.interview.principal"
	}
	return why
}
