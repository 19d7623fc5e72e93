package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
)

// discovery serves GET /.well-known/openwop: the v1 document without OpenWOP-Version, the v2 root with
// "OpenWOP-Version: 2"; each with its ETag, honouring If-None-Match.
func (h *host) discovery(w http.ResponseWriter, r *http.Request) {
	var doc any
	if strings.TrimSpace(r.Header.Get("OpenWOP-Version")) == "2" {
		doc = map[string]any{
			"protocolVersions": []string{"1.4", "2.0"},
			"preferredVersion": "2.0",
			"a2a": map[string]any{
				"status": "stable", "since": "2.0", "witness": "seam-gated",
				"versions": []string{"1.0"}, "preferredVersion": "1.0", "minimumVersion": "1.0",
				"refreshedAt": "2026-11-20", "profiles": []string{"a2a-1.0"},
				"agentCardUrl": h.base + "/.well-known/agent-card.json", "streaming": true, "agentCards": true,
			},
			"agents": map[string]any{"status": "stable", "since": "2.0", "witness": "witnessable-gated", "manifestRuntime": true},
		}
	} else {
		doc = map[string]any{"openwop": "1.4", "name": "Northwind Freight workflow host", "a2a": map[string]any{"card": h.base + "/.well-known/agent-card.json"}}
	}
	b, _ := json.Marshal(doc)
	sum := sha256.Sum256(b)
	etag := `"` + hex.EncodeToString(sum[:8]) + `"`
	w.Header().Set("ETag", etag)
	w.Header().Set("Vary", "OpenWOP-Version")
	w.Header().Set("Cache-Control", "max-age=300")
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}

// entry is an AgentInventoryEntry; a2aTenant only where a workflow is routed to the agent (§B.3).
func (h *host) entry(p *principal, a *agent) map[string]any {
	e := map[string]any{
		"agentId": a.id, "persona": a.persona, "label": a.label, "packVersion": a.packVersion,
		"installScope": a.installScope, "degraded": append([]string{}, a.degraded...), "memoryDegraded": contains(a.degraded, "memory"),
	}
	if a.description != "" {
		e["description"] = a.description
	}
	if len(a.routed[p.tenant]) > 0 {
		e["a2aTenant"] = h.routingValue(a)
	}
	return e
}

// agentsList is GET /agents.
func (h *host) agentsList(w http.ResponseWriter, r *http.Request) {
	p := h.caller(r.Header)
	if p == nil {
		problem(w, http.StatusUnauthorized, "authentication required")
		return
	}
	list := []map[string]any{}
	for _, a := range inventory(p) {
		list = append(list, h.entry(p, a))
	}
	writeJSON(w, http.StatusOK, map[string]any{"agents": list})
}

// agentGet is GET /agents/{agentId}: a missing scope is 403; an agent outside the caller's inventory is the 404
// of one never installed (RFC 0074).
func (h *host) agentGet(w http.ResponseWriter, r *http.Request) {
	p := h.caller(r.Header)
	if p == nil {
		problem(w, http.StatusUnauthorized, "authentication required")
		return
	}
	if !p.readAgents {
		problem(w, http.StatusForbidden, "the agents:read scope is required")
		return
	}
	for _, a := range inventory(p) {
		if a.id == r.PathValue("agentId") {
			writeJSON(w, http.StatusOK, h.entry(p, a))
			return
		}
	}
	problem(w, http.StatusNotFound, "agent not found")
}

// caller authenticates a bearer token from the demo directory.
func (h *host) caller(hd http.Header) *principal {
	return principals[hd.Get("Authorization")]
}

func problem(w http.ResponseWriter, status int, detail string) {
	w.Header().Set("Content-Type", "application/problem+json")
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="northwind-freight"`)
	}
	b, _ := json.Marshal(map[string]any{"status": status, "title": http.StatusText(status), "detail": detail})
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
