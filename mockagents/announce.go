package mockagents

import (
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness/target"
)

// The announcement is what the reference agents tell an operator about themselves, written as the operator's
// configuration file is (credentials, one section per document): `runsuite mock` prints it, a container of the
// reference agents announces it, and a file holding just it certifies them with nothing blocked. The agents keep
// their legacy Config for the in-process run; this is the same knowledge in the shape operators write.

// announceDoc turns one document's agents into named credentials and that document's section.
func announceDoc(doc string, a *Agents) (map[string]target.Credential, map[string]any, error) {
	creds := map[string]target.Credential{}
	sec := map[string]any{}
	cfg := a.Config
	// principal name as the document's section spells it → credential name
	named := map[string]string{}
	for _, k := range slices.Sorted(maps.Keys(cfg.Principals)) {
		name, ok := principalName(doc, k)
		if !ok {
			continue // a shared legacy alias of a document-scoped principal
		}
		p := cfg.Principals[k]
		cred := doc + "." + name
		creds[cred] = target.Credential{Header: p.Header, Value: target.Secret{Literal: p.Value}, Tenant: p.Tenant, Workspace: p.Workspace, ID: p.ID}
		named[name] = cred
	}
	if len(named) > 0 {
		if doc == "terms" {
			var list []string
			for _, n := range slices.Sorted(maps.Keys(named)) {
				list = append(list, named[n])
			}
			sec["principals"] = list
		} else {
			sec["principals"] = named
		}
	}
	reqs := map[string][]string{}
	for k, v := range cfg.Requests {
		switch {
		case k == "schema-interface.profile" && len(v) > 0:
			var prof map[string]any
			if err := json.Unmarshal([]byte(v[0]), &prof); err != nil {
				return nil, nil, fmt.Errorf("schema-interface profile: %w", err)
			}
			for m, pv := range prof {
				sec[m] = pv
			}
		case k == "__staff__":
			sec["staffRequests"] = v
		case strings.HasPrefix(k, "agent-cards:"):
			setAgentCards(sec, strings.TrimPrefix(k, "agent-cards:"), v)
		case doc == "interview" || doc == "on-request" || doc == "schema-interface":
			reqs[k] = v
		}
		// Other documents' sections take no request texts (the agent-cards host answers any).
	}
	if len(reqs) > 0 {
		sec["requests"] = reqs
	}
	if cfg.ActingFor != nil {
		sec["actingFor"] = cfg.ActingFor
	}
	if cfg.Inventory != "" {
		sec["inventory"] = cfg.Inventory
	}
	if cfg.Discovery != "" {
		sec["discovery"] = cfg.Discovery
	}
	agents := map[string]string{}
	for role, u := range a.Roles {
		switch role {
		case "interview.noterms", "interview.churn", "on-request.unattested", "on-request.unstaffed":
			agents[strings.TrimPrefix(role, doc+".")] = u
		case "terms.change-hook":
			sec["changeHook"] = u
		case "terms.claims":
			var m struct {
				Claims json.RawMessage `json:"claims"`
			}
			if err := fetchJSON(u, &m); err != nil {
				return nil, nil, err
			}
			sec["claims"] = m.Claims
		case "on-request.operator":
			var st json.RawMessage
			if err := fetchJSON(u, &st); err != nil {
				return nil, nil, err
			}
			sec["operator"] = st
		}
	}
	if len(agents) > 0 {
		sec["agents"] = agents
	}
	return creds, sec, nil
}

// principalName is the name a legacy principal key has in doc's section, or false for a key that only aliases one.
func principalName(doc, k string) (string, bool) {
	switch {
	case strings.HasPrefix(k, doc+"."):
		return strings.TrimPrefix(k, doc+"."), true
	case doc == "terms" && strings.HasPrefix(k, "terms-"):
		return strings.TrimPrefix(k, "terms-"), true
	case doc == "schema-interface":
		return k, true // the document's principals are the shared A and B
	}
	return "", false
}

// setAgentCards places one legacy "agent-cards:" key in the agent-cards section.
func setAgentCards(sec map[string]any, k string, v []string) {
	path := target.AgentCardsPath(k)
	if path == nil {
		return
	}
	m := sec
	for _, p := range path[:len(path)-1] {
		next, _ := m[p].(map[string]any)
		if next == nil {
			next = map[string]any{}
			m[p] = next
		}
		m = next
	}
	m[path[len(path)-1]] = v
}

// fetchJSON reads a document one of the reference agents serves (loopback, the test CA).
func fetchJSON(u string, into any) error {
	hc := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{Proxy: nil,
		TLSClientConfig: &tls.Config{RootCAs: testpki.CAPool(), MinVersion: tls.VersionTLS12}}}
	defer hc.CloseIdleConnections()
	resp, err := hc.Get(u)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	return json.Unmarshal(b, into)
}
