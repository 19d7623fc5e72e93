package a2atest

import (
	"net/http"
	"slices"
	"strings"

	"github.com/extconf/extconf/harness/a2a"
)

// Principal is an authenticated caller: who it is and its tenant of record.
type Principal struct{ Name, Tenant string }

// Ctx is one A2A operation in flight, as the core resolved it before handing it to the agent.
type Ctx struct {
	R          *http.Request
	Binding    string     // a2a.BindingJSONRPC or a2a.BindingHTTPJSON
	Method     string     // A2A method name: "SendMessage", "GetTask", …, or the custom method
	Version    string     // the requested A2A-Version as sent ("" when absent, which A2A §3.6.2 reads as 0.3)
	Requested  []string   // URIs from the A2A-Extensions request header (comma separated, trimmed)
	Activated  []string   // Requested ∩ URIs the current card declares; echoed in the A2A-Extensions response header
	Principal  *Principal // nil when unauthenticated
	Tenant     string     // params.tenant (JSON-RPC) or the /{tenant}/ path prefix (HTTP+JSON)
	RespHeader http.Header
	Server     *Server
}

// IsActive reports whether the extension uri was activated for this request.
func (c *Ctx) IsActive(uri string) bool { return slices.Contains(c.Activated, uri) }

// IsRequested reports whether the client listed uri in A2A-Extensions, declared by the card or not.
func (c *Ctx) IsRequested(uri string) bool { return slices.Contains(c.Requested, uri) }

// owner is the principal tenant that scopes tasks ("" when unauthenticated).
func (c *Ctx) owner() string {
	if c.Principal == nil {
		return ""
	}
	return c.Principal.Tenant
}

// splitList parses a comma-separated header (all its lines): trimmed, empties dropped, duplicates removed.
func splitList(values []string) []string {
	var out []string
	for _, v := range values {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// credential returns the API key sent as "Authorization: Bearer <key>" or "X-API-Key: <key>".
func credential(r *http.Request) (string, bool) {
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, rest, ok := strings.Cut(h, " ")
		if ok && strings.EqualFold(scheme, "Bearer") {
			return strings.TrimSpace(rest), true
		}
		return "", true // a credential in a scheme the core does not know is an invalid credential
	}
	if k := r.Header.Get("X-API-Key"); k != "" {
		return strings.TrimSpace(k), true
	}
	return "", false
}

// requestedVersion is the A2A-Version header, or the A2A-Version query parameter (A2A §3.6.1 allows either).
func requestedVersion(r *http.Request) string {
	if v := strings.TrimSpace(r.Header.Get(a2a.HeaderVersion)); v != "" {
		return v
	}
	return strings.TrimSpace(r.URL.Query().Get(a2a.HeaderVersion))
}

// majorMinor drops a patch component ("1.0.1" → "1.0"): A2A §3.6 negotiates Major.Minor only. Empty is 0.3.
func majorMinor(v string) string {
	if v == "" {
		return "0.3"
	}
	parts := strings.SplitN(v, ".", 3)
	if len(parts) >= 2 {
		return parts[0] + "." + parts[1]
	}
	return v
}
