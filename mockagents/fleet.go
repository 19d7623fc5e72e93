package mockagents

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/sabotage"
)

// Agents is what one document's starter returns: role → card URL, and how to stop them.
type Agents struct {
	Roles  map[string]string
	Config target.Config // operator settings the mock provides for itself (principals, inventory, requests)
	Close  func()
}

// Starter starts one document's reference agents with the given toggles on.
type Starter func(set sabotage.Set) (*Agents, error)

var starters = map[string]Starter{}

func register(doc string, s Starter) { starters[doc] = s }

// Documents lists the documents that have a reference agent.
func Documents() []string {
	out := make([]string, 0, len(starters))
	for d := range starters {
		out = append(out, d)
	}
	sort.Strings(out)
	return out
}

// Start starts the reference agents of docs (all when empty) as one mock target. The harness trusts the test CA.
func Start(set sabotage.Set, docs ...string) (*target.Target, error) {
	if len(docs) == 0 {
		docs = Documents()
	}
	// In one order whatever the caller's: agents merge their settings in start order, and a later document's
	// principal "A" takes precedence (agent-cards keeps its own under agent-cards.A), so --suite
	// schema-interface,agent-cards must configure what agent-cards,schema-interface does.
	docs = slices.Sorted(slices.Values(docs))
	t := &target.Target{Kind: target.KindMock, Agents: map[string]string{}, RootCAs: testpki.CAPool(), Sabotage: set.IDs()}
	var closers []func()
	t.Close = func() error {
		for _, c := range closers {
			c()
		}
		return nil
	}
	var started []startedDoc
	for _, d := range docs {
		s, ok := starters[d]
		if !ok {
			continue // a document without a reference agent yet: its rows stay not-tested
		}
		a, err := s(set)
		if err != nil {
			_ = t.Close()
			return nil, fmt.Errorf("reference agent for %s: %w", d, err)
		}
		closers = append(closers, a.Close)
		for role, u := range a.Roles {
			if _, dup := t.Agents[role]; dup {
				_ = t.Close()
				return nil, errors.New("two reference agents claim role " + role)
			}
			t.Agents[role] = u
		}
		mergeConfig(&t.Config, a.Config)
		started = append(started, startedDoc{d, a})
	}
	// Asked for only by `runsuite mock` and tests: it reads the agents' own statement and claim map over https,
	// which no run needs.
	t.Announce = func() (*target.Config, error) {
		an := &target.Config{Agents: map[string]string{}, Credentials: map[string]target.Credential{}, Documents: map[string]json.RawMessage{}}
		for _, sd := range started {
			creds, sec, err := announceDoc(sd.doc, sd.agents)
			if err != nil {
				return nil, fmt.Errorf("reference agent for %s: announcement: %w", sd.doc, err)
			}
			addAnnounced(an, sd.doc, sd.agents, creds, sec)
		}
		return an, nil
	}
	return t, nil
}

type startedDoc struct {
	doc    string
	agents *Agents
}

// addAnnounced adds one document's credentials, section, card URL and shared settings to an.
func addAnnounced(an *target.Config, doc string, a *Agents, creds map[string]target.Credential, sec map[string]any) {
	if u, ok := a.Roles[doc]; ok {
		an.Agents[doc] = u
	}
	maps.Copy(an.Credentials, creds)
	if len(sec) > 0 {
		b, _ := json.Marshal(sec)
		an.Documents[doc] = b
	}
	if a.Config.Provider != "" {
		an.Provider = a.Config.Provider
	}
	if len(a.Config.TrustedKeys) > 0 {
		an.TrustedKeys = a.Config.TrustedKeys
	}
	if len(a.Config.Limits) > 0 {
		an.Limits = mergeLimits(an.Limits, a.Config.Limits)
	}
}

func mergeConfig(dst *target.Config, src target.Config) {
	if src.Principals != nil {
		if dst.Principals == nil {
			dst.Principals = map[string]target.Principal{}
		}
		for k, v := range src.Principals {
			dst.Principals[k] = v
		}
	}
	if src.Requests != nil {
		if dst.Requests == nil {
			dst.Requests = map[string][]string{}
		}
		for k, v := range src.Requests {
			dst.Requests[k] = v
		}
	}
	if src.Inventory != "" {
		dst.Inventory = src.Inventory
	}
	if src.Discovery != "" {
		dst.Discovery = src.Discovery
	}
	if src.ActingFor != nil {
		dst.ActingFor = src.ActingFor
	}
	if src.Provider != "" {
		dst.Provider = src.Provider
	}
	if len(src.TrustedKeys) > 0 {
		dst.TrustedKeys = src.TrustedKeys
	}
	if len(src.Limits) > 0 {
		dst.Limits = mergeLimits(dst.Limits, src.Limits)
	}
}

// mergeLimits merges two agents' limits objects: allowOrigins are joined, any other member is src's.
func mergeLimits(dst, src json.RawMessage) json.RawMessage {
	if len(dst) == 0 {
		return src
	}
	var d, s map[string]json.RawMessage
	if json.Unmarshal(dst, &d) != nil || json.Unmarshal(src, &s) != nil {
		return src
	}
	var origins []string
	for _, m := range []map[string]json.RawMessage{d, s} {
		var o []string
		_ = json.Unmarshal(m["allowOrigins"], &o)
		origins = append(origins, o...)
	}
	maps.Copy(d, s)
	if len(origins) > 0 {
		d["allowOrigins"], _ = json.Marshal(origins)
	}
	b, _ := json.Marshal(d)
	return b
}
