package harness

import (
	"net/url"
	"strings"

	"github.com/extconf/extconf/harness/target"
)

// SharedStater is implemented by documents whose rows may share the agent between processes of a run
// (runsuite run --jobs against a URL or container target): it names the rows that observe state the agent keeps
// across exchanges from different callers (task lists, rate limits, action logs, a standing proposal), or change
// state other rows observe, each with the state it is about. Those rows run together, in one process, while no
// other exchange of the run reaches the document's agents; every other row of the document may run beside any.
// A document that does not implement it keeps every row so ordered: a false failure caused by interference is the
// worst outcome, so silence means serial.
type SharedStater interface {
	SharedState() map[string]string
}

// OrderedRows returns the rows of d that must stay ordered (see SharedStater) and whether that is every row of d.
func OrderedRows(d Document) (rows map[string]string, all bool) {
	s, ok := d.(SharedStater)
	if !ok {
		return nil, true
	}
	return s.SharedState(), false
}

// AgentOrigins are the origins a run of document doc addresses on tgt: its roles' card URLs (the document's own
// role and its extra roles "doc.x", else the target's default agent) and the origins its operator input names.
// Two parts of a split run that address disjoint origins cannot observe each other's state.
func AgentOrigins(tgt *target.Target, d Document) []string {
	var out []string
	id := d.ID()
	found := false
	for role, u := range tgt.Agents {
		if role == id || (len(role) > len(id) && role[:len(id)+1] == id+".") {
			out = append(out, originOf(u))
			found = true
		}
	}
	if !found {
		if u, ok := tgt.Agents[""]; ok {
			out = append(out, originOf(u))
		}
	}
	for _, o := range d.Origins(tgt.Config) {
		out = append(out, originOf(o))
	}
	return out
}

// originOf is scheme://host:port of u (u itself when it does not parse, so unlike strings never match).
func originOf(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.Host == "" {
		return u
	}
	port := p.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[p.Scheme]
	}
	return p.Scheme + "://" + strings.ToLower(p.Hostname()) + ":" + port
}
