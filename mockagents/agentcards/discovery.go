package agentcards

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/extconf/extconf/sabotage"
)

// serveDiscovery is OpenWOP's well-known resource (capabilities.md §1): the v1 document for a request without
// OpenWOP-Version, the closed v2 root for OpenWOP-Version: 2, each with an ETag honoured by If-None-Match (§1.1).
func (h *host) serveDiscovery(w http.ResponseWriter, r *http.Request) {
	v2 := strings.TrimSpace(r.Header.Get("OpenWOP-Version")) == "2"
	switch h.opt.Discovery {
	case "none":
		writeJSON(w, http.StatusNotFound, map[string]any{"error": map[string]string{"code": "not_found", "message": "not found"}})
		return
	case "v1-only":
		v2 = false
	case "v2-only":
		v2 = true
	}
	var doc any
	if v2 {
		doc = h.discoveryV2()
		w.Header().Set("OpenWOP-Version", "2")
	} else {
		doc = h.discoveryV1()
	}
	b, _ := json.Marshal(doc)
	sum := sha256.Sum256(b)
	etag := `"` + base64.RawURLEncoding.EncodeToString(sum[:12]) + `"`
	w.Header().Set("ETag", etag)
	w.Header().Set("Vary", "OpenWOP-Version")
	w.Header().Set("Cache-Control", "max-age=60")
	for _, t := range strings.Split(r.Header.Get("If-None-Match"), ",") {
		if t = strings.TrimSpace(t); t == etag || t == "W/"+etag || t == "*" {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
}

// discoveryV1 is the host's v1 discovery document (what a client that sends no OpenWOP-Version reads). It names
// no RFC 0202 facet: v1 is untouched.
func (h *host) discoveryV1() map[string]any {
	versions := []string{"1.4", "2.0"}
	if h.opt.Discovery == "v1-only" {
		versions = []string{"1.4"}
	}
	return map[string]any{
		"openwop": "1.4", "protocolVersions": versions,
		"host":     map[string]string{"name": h.fx.Host.Name, "version": h.fx.Host.Version},
		"profiles": []string{"core", "a2a"},
		"a2a":      map[string]any{"supported": true, "agentCardUrl": h.srv.CardURL()},
		"agents":   map[string]any{"supported": true},
	}
}

// discoveryV2 is the closed v2 root (capabilities.md §2, §3): metadata keys and one capability record per family;
// RFC 0202's facet is the key agentCards in the a2a record, manifestRuntime a key of the agents record.
func (h *host) discoveryV2() map[string]any {
	a2aRec := map[string]any{"status": "stable", "since": "2.0", "witness": "seam-gated",
		"versions": []string{"1.0"}, "preferredVersion": "1.0", "minimumVersion": "1.0", "refreshedAt": "2026-11-01",
		"profiles": []string{"a2a-1.0"}, "agentCardUrl": h.srv.CardURL(), "streaming": true, "agentCards": true}
	if h.on(sabotage.ACNoA2AProfile) {
		a2aRec["versions"], a2aRec["preferredVersion"], a2aRec["minimumVersion"] = []string{"0.3"}, "0.3", "0.3"
		a2aRec["profiles"] = []string{"a2a-0.3"}
	}
	if h.opt.VersionsOnly {
		delete(a2aRec, "profiles")
	}
	agents := map[string]any{"status": "stable", "since": "2.0", "witness": "witnessable-gated", "manifestRuntime": true}
	if h.opt.ManifestRuntimeObject {
		agents["manifestRuntime"] = map[string]any{"supported": true}
	}
	if h.on(sabotage.ACNoManifestRuntime) {
		delete(agents, "manifestRuntime")
	}
	return map[string]any{"protocolVersions": []string{"1.4", "2.0"}, "preferredVersion": "2.0", "a2a": a2aRec, "agents": agents}
}
