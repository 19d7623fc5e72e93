package target

import (
	"fmt"
	"sort"
	"strings"
)

// LegacyWarnings names, for each member of cfg in a pre-#22 place, where it lives now. Such files keep working
// for one release (the members are still read); runsuite prints these lines on stderr. Call it on the file as
// loaded, before the document sections are applied.
func LegacyWarnings(cfg Config) []string {
	var out []string
	warn := func(old, now string) { out = append(out, fmt.Sprintf("%s is deprecated: move it to %s", old, now)) }
	for _, k := range sortedKeys(cfg.Principals) {
		doc, name := principalHome(k)
		warn("$.principals."+k, fmt.Sprintf("$.credentials.<name> {header, value} and name it in %s", docPrincipalMember(doc, name)))
	}
	if cfg.Inventory != "" {
		warn("$.inventory", "$.documents.agent-cards.inventory")
	}
	if cfg.Discovery != "" {
		warn("$.discovery", "$.documents.agent-cards.discovery")
	}
	if cfg.ActingFor != nil {
		warn("$.actingFor", "$.documents.on-request.actingFor")
	}
	for _, k := range sortedKeys(cfg.Agents) {
		if now, ok := legacyRoles[k]; ok {
			warn("$.agents."+k, now)
		}
	}
	for _, k := range sortedKeys(cfg.Requests) {
		switch {
		case k == "schema-interface.profile":
			warn(`$.requests["schema-interface.profile"]`, "the members of $.documents.schema-interface, written inline")
		case k == "__staff__":
			warn(`$.requests["__staff__"]`, "$.documents.on-request.staffRequests")
		case strings.HasPrefix(k, "agent-cards:"):
			warn(fmt.Sprintf("$.requests[%q]", k), agentCardsKey(strings.TrimPrefix(k, "agent-cards:")))
		default:
			warn("$.requests."+k, "$.documents.<id>.requests."+k+" of the document whose skill it is")
		}
	}
	return out
}

var legacyRoles = map[string]string{
	"interview.noterms":     "$.documents.interview.agents.noterms",
	"interview.churn":       "$.documents.interview.agents.churn",
	"on-request.unattested": "$.documents.on-request.agents.unattested",
	"on-request.unstaffed":  "$.documents.on-request.agents.unstaffed",
	"on-request.operator":   "$.documents.on-request.operator (the statement itself, inline)",
	"terms.change-hook":     "$.documents.terms.changeHook",
	"terms.claims":          "$.documents.terms.claims (the claim map's claims, inline)",
}

func principalHome(k string) (doc, name string) {
	for _, d := range []string{"agent-cards.", "on-request.", "schema-interface.", "interview."} {
		if strings.HasPrefix(k, d) {
			return strings.TrimSuffix(d, "."), strings.TrimPrefix(k, d)
		}
	}
	if strings.HasPrefix(k, "terms") {
		return "terms", k
	}
	return "", k
}

func docPrincipalMember(doc, name string) string {
	switch doc {
	case "terms":
		return "$.documents.terms.principals[]"
	case "interview":
		return "$.documents.interview.principal"
	case "":
		return "$.documents.<id>.principals." + name + " of each document that uses it (interview: principal)"
	}
	return "$.documents." + doc + ".principals." + name
}

func agentCardsKey(k string) string {
	if p := AgentCardsPath(k); p != nil {
		return "$.documents.agent-cards." + strings.Join(p, ".")
	}
	return "$.documents.agent-cards"
}

// AgentCardsPath is where a legacy "agent-cards:<k>" requests key lives in documents.agent-cards, member by member
// ("routed:A:x" → routed, A, x); nil for a key that has no place.
func AgentCardsPath(k string) []string {
	parts := strings.SplitN(k, ":", 3)
	switch {
	case parts[0] == "routed" && len(parts) == 3:
		return parts
	case (parts[0] == "workflowless" || parts[0] == "degraded") && len(parts) == 2:
		return parts
	case parts[0] == "canary" && len(parts) == 2:
		return []string{"canaries", camel(parts[1])}
	case parts[0] == "foreign-r" && len(parts) == 2:
		return []string{"foreignR", parts[1]}
	}
	return nil
}

func camel(s string) string {
	p := strings.Split(s, "-")
	for i := 1; i < len(p); i++ {
		if p[i] != "" {
			p[i] = strings.ToUpper(p[i][:1]) + p[i][1:]
		}
	}
	return strings.Join(p, "")
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
