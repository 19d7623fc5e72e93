package interview

import (
	"context"
	"encoding/json"
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
	ep, err := endpoint(card, cfg)
	if err != nil {
		return ""
	}
	_, resp, ex, obs := askListTasks(ctx, cl, ep, 1, "config: ListTasks, which IV-4.2c/d observe through")
	if obs == "" || ex == nil || ex.Status == 0 {
		return "" // listed, or no answer: the run blocks on reachability, not on this member
	}
	return listTasksRemedy(obs+", "+ex.Summary(), ex, resp)
}

// askListTasks lists the caller's tasks at ep as IV-4.2c/d do; obs says why the call listed nothing ("" when it
// listed).
func askListTasks(ctx context.Context, cl *a2a.Client, ep vinterview.Endpoint, pageSize int, note string) (json.RawMessage, *a2a.RPCResponse, *a2a.Exchange, string) {
	params := map[string]any{"pageSize": pageSize}
	if ep.Tenant != "" {
		params["tenant"] = ep.Tenant
	}
	raw, resp, ex, err := cl.ListTasks(ctx, ep.URL, params, a2a.Call{Header: ep.Header, Note: note})
	switch {
	case err != nil:
		return raw, resp, ex, err.Error()
	case resp == nil:
		return raw, resp, ex, "no response"
	case resp.Error != nil:
		return raw, resp, ex, fmt.Sprintf("JSON-RPC error %d %s", resp.Error.Code, resp.Error.Message)
	}
	return raw, resp, ex, ""
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
