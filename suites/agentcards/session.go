package agentcards

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/target"
)

// session is one run's shared view of the host: each surface is fetched once and every spec asserts on the same
// recorded exchanges. Memoised computations never fail a spec themselves; they return what they saw (errors
// included) and the spec decides which of its rows that fails.
type session struct {
	e    *harness.Env
	mu   sync.Mutex
	memo map[string]*memoVal
}

type memoVal struct {
	once sync.Once
	v    any
}

var (
	sessMu  sync.Mutex
	current *session
)

// sessionFor returns the session of the run env belongs to (runs are serialised by the engine).
func sessionFor(e *harness.Env) *session {
	sessMu.Lock()
	defer sessMu.Unlock()
	if current == nil || current.e != e {
		current = &session{e: e, memo: map[string]*memoVal{}}
	}
	return current
}

func memo[T any](s *session, key string, f func() T) T {
	s.mu.Lock()
	m := s.memo[key]
	if m == nil {
		m = &memoVal{}
		s.memo[key] = m
	}
	s.mu.Unlock()
	m.once.Do(func() { m.v = f() })
	v, _ := m.v.(T)
	return v
}

func (s *session) cfg() target.Config { return s.e.Target.Config }

// client returns the harness client speaking as role, if the operator configured that principal.
func (s *session) client(role string) (*a2a.Client, bool) {
	p, ok := principalFor(s.cfg(), role)
	if !ok {
		return nil, false
	}
	h := p.Header
	if h == "" {
		h = "Authorization"
	}
	return s.e.Client.WithHeader(h, p.Value), true
}

// badClient sends a well-formed bearer credential no host issued.
func (s *session) badClient() *a2a.Client {
	return s.e.Client.WithHeader("Authorization", "Bearer extconf-invalid-credential-7c1f")
}

// ---- origins: the harness follows no URL off the target's own origins ----

func origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host)
}

func (s *session) allowed(raw string) bool {
	o := origin(raw)
	if o == "" {
		return false
	}
	cfg := s.cfg()
	for _, known := range []string{cfg.Discovery, cfg.Inventory, s.discoveryURL(), s.inventoryURL()} {
		if known != "" && origin(known) == o {
			return true
		}
	}
	if u, ok := s.e.Target.CardURL(role); ok && origin(u) == o {
		return true
	}
	return false
}

const role = "agent-cards"

// WellKnownPath is OpenWOP's discovery resource (capabilities.md §1), on the host's origin.
const WellKnownPath = "/.well-known/openwop"

// discoveryURL is the operator's `discovery` when given, else /.well-known/openwop on the card's origin.
func (s *session) discoveryURL() string {
	if u := s.cfg().Discovery; u != "" {
		return u
	}
	if u, ok := s.e.Target.CardURL(role); ok && origin(u) != "" {
		return origin(u) + WellKnownPath
	}
	return ""
}

// inventoryURL is the operator's `inventory` when given, else GET /agents on the discovery document's origin.
func (s *session) inventoryURL() string {
	if u := s.cfg().Inventory; u != "" {
		return resolveInventory(u, s.discoveryURL())
	}
	if o := origin(s.discoveryURL()); o != "" {
		return o + "/agents"
	}
	return ""
}

// ---- the OpenWOP discovery document (v2, negotiated with OpenWOP-Version: 2) ----

type discovery struct {
	url        string
	configured bool // the operator named the document; otherwise it was looked for at the well-known location
	raw        []byte
	doc        map[string]any
	ex         *a2a.Exchange
	err        error  // could not be fetched or parsed: fails the advertisement rows
	absent     string // not configured and nothing OpenWOP at the well-known location: the target is no OpenWOP host
	v1         string // the host answered the v2 request with a v1 document: a v1-only host
}

// a2a and agents are the root's capability records (absent → nil).
func (d *discovery) record(family string) map[string]any {
	m, _ := d.doc[family].(map[string]any)
	return m
}

func (s *session) discovery(ctx context.Context) *discovery {
	return memo(s, "discovery", func() *discovery {
		d := &discovery{url: s.discoveryURL(), configured: s.cfg().Discovery != ""}
		if d.url == "" {
			d.absent = "the target has no card URL to find /.well-known/openwop beside, and no `discovery` is configured"
			return d
		}
		c := s.e.Client.WithHeader("OpenWOP-Version", "2")
		var err error
		d.ex, err = c.HTTP(ctx, http.MethodGet, d.url, nil, a2a.Call{Note: "OpenWOP discovery document, OpenWOP-Version: 2"})
		ct := ""
		if d.ex != nil {
			ct = strings.ToLower(d.ex.ResponseHeader.Get("Content-Type"))
		}
		switch {
		case err != nil && (d.ex == nil || d.ex.Status == 0):
			d.err = fmt.Errorf("GET %s: %v", d.url, err)
		case !d.configured && (d.ex.Status == http.StatusNotFound || d.ex.Status == http.StatusGone):
			d.absent = fmt.Sprintf("GET %s answers HTTP %d (%s)", d.url, d.ex.Status, d.ex.ID)
		case !d.configured && d.ex.Status == http.StatusOK && !strings.Contains(ct, "json"):
			d.absent = fmt.Sprintf("GET %s answers a %q document, not JSON (%s)", d.url, ct, d.ex.ID)
		case d.ex.Status != http.StatusOK:
			d.err = fmt.Errorf("GET %s with OpenWOP-Version: 2 answers HTTP %d: %s", d.url, d.ex.Status, clip(string(d.ex.ResponseBody), 200))
		default:
			d.raw = d.ex.ResponseBody
			if json.Unmarshal(d.raw, &d.doc) != nil || d.doc == nil {
				d.err = fmt.Errorf("the discovery document at %s is not a JSON object: %s", d.url, clip(string(d.raw), 200))
			} else if !d.isV2() {
				d.v1 = fmt.Sprintf("GET %s with OpenWOP-Version: 2 answers a document whose protocolVersions (%s) names no 2.x version (%s)", d.url, jsonOf(d.doc["protocolVersions"]), d.ex.ID)
			}
		}
		return d
	})
}

// isV2: the v2 root's required protocolVersions lists a 2.x version (capabilities.md §2).
func (d *discovery) isV2() bool {
	l, _ := d.doc["protocolVersions"].([]any)
	for _, v := range l {
		if str, ok := v.(string); ok && (str == "2" || strings.HasPrefix(str, "2.")) {
			return true
		}
	}
	return false
}

// facet reports whether the v2 root's capability record family carries facet name. A facet is advertised by the
// presence of its key in the record (capabilities.md §3); wantTrue demands the JSON boolean true (a2a.agentCards
// is `const: true`). A value of false, null or {"supported": false} does not advertise the facet.
func (d *discovery) facet(family, name string, wantTrue bool) (bool, string) {
	rec := d.record(family)
	if rec == nil {
		return false, fmt.Sprintf("the v2 root has no %q capability record (root members: %s)", family, keysOf(d.doc))
	}
	v, has := rec[name]
	ok := has && v != nil && v != false
	if m, isObj := v.(map[string]any); isObj && (m["supported"] == false || m["enabled"] == false) {
		ok = false
	}
	if wantTrue {
		ok = v == true
	}
	if !has {
		return false, fmt.Sprintf("the %q record has no %q key (keys: %s)", family, name, keysOf(rec))
	}
	return ok, fmt.Sprintf("%s.%s = %s", family, name, jsonOf(v))
}

// profile reports whether the a2a record offers the a2a-1.0 profile: "a2a-1.0" in its profiles, or "1.0" in its
// versions (capabilities.md §7: the profiles are being replaced by versions[]; both say the same).
func (d *discovery) a2a10() (bool, string) {
	rec := d.record("a2a")
	if rec == nil {
		return false, "the v2 root has no \"a2a\" capability record"
	}
	if l, _ := rec["profiles"].([]any); slices.Contains(l, any("a2a-1.0")) {
		return true, `a2a.profiles lists "a2a-1.0"`
	}
	if l, _ := rec["versions"].([]any); slices.Contains(l, any("1.0")) {
		return true, `a2a.versions lists "1.0"`
	}
	return false, fmt.Sprintf("a2a.profiles = %s, a2a.versions = %s", jsonOf(rec["profiles"]), jsonOf(rec["versions"]))
}

// agentCardURL is the a2a record's agentCardUrl facet ("" when absent).
func (d *discovery) agentCardURL() string {
	u, _ := d.record("a2a")["agentCardUrl"].(string)
	return u
}

func keysOf(m map[string]any) string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return "[" + strings.Join(ks, ", ") + "]"
}

func jsonOf(v any) string {
	if v == nil {
		return "absent"
	}
	b, _ := json.Marshal(v)
	return clip(string(b), 300)
}

// ---- the public card's interfaces ----

type ifaces struct {
	rpc, rest string
	skipped   []string // interfaces not followed (off the target's origins, or gRPC)
	grpc      []string // gRPC interfaces: their legs are reported not tested (the harness speaks no gRPC)
}

func (s *session) interfaces(card *a2a.AgentCard) ifaces {
	var out ifaces
	for _, in := range card.SupportedInterfaces {
		switch {
		case strings.EqualFold(in.ProtocolBinding, "GRPC"):
			out.grpc = append(out.grpc, in.URL)
			out.skipped = append(out.skipped, in.ProtocolBinding+" "+in.URL+" (binding not exercised)")
		case in.ProtocolBinding != a2a.BindingJSONRPC && in.ProtocolBinding != a2a.BindingHTTPJSON:
			out.skipped = append(out.skipped, in.ProtocolBinding+" "+in.URL+" (binding not exercised)")
		case !s.allowed(in.URL):
			out.skipped = append(out.skipped, in.ProtocolBinding+" "+in.URL+" (off the target's origins: not followed)")
		case in.ProtocolBinding == a2a.BindingJSONRPC && out.rpc == "":
			out.rpc = in.URL
		case in.ProtocolBinding == a2a.BindingHTTPJSON && out.rest == "":
			out.rest = in.URL
		}
	}
	return out
}

func (f ifaces) bindings() []string {
	var out []string
	if f.rpc != "" {
		out = append(out, a2a.BindingJSONRPC)
	}
	if f.rest != "" {
		out = append(out, a2a.BindingHTTPJSON)
	}
	return out
}

// ---- the inventory (GET /agents) ----

type entry struct {
	fields         map[string]json.RawMessage
	AgentID        string
	Persona        string
	Label          string
	Description    string
	HasDescription bool
	PackVersion    string
	R              string
	HasR           bool
}

type listing struct {
	entries []entry
	ex      *a2a.Exchange
	err     error
}

func (l *listing) byID(id string) (entry, bool) {
	for _, e := range l.entries {
		if e.AgentID == id {
			return e, true
		}
	}
	return entry{}, false
}

// withR returns the entries that carry an a2aTenant, in listing order.
func (l *listing) withR() []entry {
	var out []entry
	for _, e := range l.entries {
		if e.HasR && e.R != "" {
			out = append(out, e)
		}
	}
	return out
}

func (l *listing) rs() []string {
	var out []string
	for _, e := range l.withR() {
		out = append(out, e.R)
	}
	return out
}

var errNoInventory = errors.New("no inventory URL: neither `inventory` in the target configuration nor a discovery document's origin to find GET /agents on")

// list performs GET /agents as role.
func (s *session) list(ctx context.Context, c *a2a.Client, note string) *listing {
	l := &listing{}
	u := s.inventoryURL()
	if u == "" {
		l.err = errNoInventory
		return l
	}
	var raw []byte
	raw, l.ex, l.err = c.FetchJSON(ctx, u, a2a.Call{Note: note})
	if l.err != nil && noRoute(l.ex) {
		// Guessed or stated, a location that serves nothing is no verdict on the host: RFC 0202 names the
		// operation, not its path.
		l.err = fmt.Errorf("%w: GET %s answers HTTP %d (%s)", errInventoryElsewhere, u, l.ex.Status, l.ex.ID)
	}
	if l.err != nil {
		return l
	}
	l.entries, l.err = parseInventory(raw)
	return l
}

func (s *session) listing(ctx context.Context, role string) *listing {
	return memo(s, "listing:"+role, func() *listing {
		c, ok := s.client(role)
		if !ok {
			return &listing{err: fmt.Errorf("principal %s is not configured", role)}
		}
		return s.list(ctx, c, "GET /agents as principal "+role)
	})
}

// parseInventory reads {"agents": [...]}, {"items": [...]} or a bare array of entries.
func parseInventory(raw []byte) ([]entry, error) {
	var items []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		var wrap map[string]json.RawMessage
		if json.Unmarshal(raw, &wrap) != nil {
			return nil, fmt.Errorf("GET /agents: neither an array nor an object")
		}
		body, ok := wrap["agents"]
		if !ok {
			body, ok = wrap["items"]
		}
		if !ok || json.Unmarshal(body, &items) != nil {
			return nil, fmt.Errorf("GET /agents: no agents array")
		}
	}
	out := make([]entry, 0, len(items))
	for _, it := range items {
		e := entry{fields: it}
		str := func(k string) (string, bool) {
			v, ok := it[k]
			var s string
			if ok && json.Unmarshal(v, &s) != nil {
				return string(v), true
			}
			return s, ok
		}
		e.AgentID, _ = str("agentId")
		e.Persona, _ = str("persona")
		e.Label, _ = str("label")
		e.Description, e.HasDescription = str("description")
		e.PackVersion, _ = str("packVersion")
		e.R, e.HasR = str("a2aTenant")
		out = append(out, e)
	}
	return out, nil
}

// ---- per-agent cards ----

// fetched is one GetExtendedAgentCard answer.
type fetched struct {
	raw    []byte // the card (JSON-RPC result / HTTP+JSON body) when it was a success
	ex     *a2a.Exchange
	failed string // why there is no card: transport error, JSON-RPC error, HTTP status
	// notConfigured: the answer is A2A's ExtendedAgentCardNotConfigured (-32007, or the HTTP+JSON ErrorInfo reason
	// EXTENDED_AGENT_CARD_NOT_CONFIGURED): the host declares the operation and has no such card.
	notConfigured bool
}

func (f fetched) card() (*a2a.AgentCard, error) {
	var c a2a.AgentCard
	if err := json.Unmarshal(f.raw, &c); err != nil {
		return nil, err
	}
	return &c, nil
}

func getCardRPC(ctx context.Context, c *a2a.Client, u, tenant, note string) fetched {
	params := map[string]any{}
	if tenant != "" {
		params["tenant"] = tenant
	}
	resp, ex, err := c.RPC(ctx, u, a2a.MethodGetExtendedAgentCard, params, a2a.Call{Note: note})
	f := fetched{ex: ex}
	switch {
	case err != nil:
		f.failed = err.Error()
	case resp.Error != nil:
		f.failed = fmt.Sprintf("JSON-RPC error %d %q (HTTP %d)", resp.Error.Code, resp.Error.Message, ex.Status)
		f.notConfigured = resp.Error.Code == -32007
	case len(resp.Result) == 0 || resp.Result[0] != '{':
		f.failed = "result is not an object: " + clip(string(resp.Result), 200)
	default:
		f.raw = resp.Result
	}
	return f
}

func getCardREST(ctx context.Context, c *a2a.Client, base, tenant, note string) fetched {
	path := "/extendedAgentCard"
	if tenant != "" {
		path = "/" + url.PathEscape(tenant) + path
	}
	ex, err := c.REST(ctx, "GET", base, path, nil, a2a.Call{Note: note})
	f := fetched{ex: ex}
	switch {
	case err != nil:
		f.failed = err.Error()
	case ex.Status != 200:
		f.failed = fmt.Sprintf("HTTP %d: %s", ex.Status, clip(string(ex.ResponseBody), 200))
		f.notConfigured = strings.Contains(restCode(ex.ResponseBody, ex.Status), "EXTENDED_AGENT_CARD_NOT_CONFIGURED")
	case !json.Valid(ex.ResponseBody) || len(ex.ResponseBody) == 0 || ex.ResponseBody[0] != '{':
		f.failed = "the body is not a JSON object"
	default:
		f.raw = ex.ResponseBody
	}
	return f
}

// agentCard is one entry's card as role fetched it over each binding.
type agentCard struct {
	entry entry
	rpc   *fetched // nil when the host serves no JSON-RPC interface
	rest  *fetched
}

// any returns the first card fetched successfully (JSON-RPC preferred), for the static checks.
func (a agentCard) any() (fetched, bool) {
	for _, f := range []*fetched{a.rpc, a.rest} {
		if f != nil && f.raw != nil {
			return *f, true
		}
	}
	return fetched{}, false
}

// all returns every card fetched successfully, labelled by binding.
func (a agentCard) all() map[string]fetched {
	out := map[string]fetched{}
	if a.rpc != nil && a.rpc.raw != nil {
		out[a2a.BindingJSONRPC] = *a.rpc
	}
	if a.rest != nil && a.rest.raw != nil {
		out[a2a.BindingHTTPJSON] = *a.rest
	}
	return out
}

func (s *session) agentCards(ctx context.Context, role string, ifs ifaces) []agentCard {
	return memo(s, "cards:"+role, func() []agentCard {
		c, ok := s.client(role)
		l := s.listing(ctx, role)
		if !ok || l.err != nil {
			return nil
		}
		var out []agentCard
		for _, e := range l.withR() {
			ac := agentCard{entry: e}
			if ifs.rpc != "" {
				f := getCardRPC(ctx, c, ifs.rpc, e.R, fmt.Sprintf("GetExtendedAgentCard tenant=%s (%s) as %s", e.R, e.AgentID, role))
				ac.rpc = &f
			}
			if ifs.rest != "" {
				f := getCardREST(ctx, c, ifs.rest, e.R, fmt.Sprintf("GET /{tenant}/extendedAgentCard tenant=%s (%s) as %s", e.R, e.AgentID, role))
				ac.rest = &f
			}
			out = append(out, ac)
		}
		return out
	})
}

// hostExtended is the host's own extended card (no tenant) as A, per binding.
func (s *session) hostExtended(ctx context.Context, ifs ifaces) map[string]fetched {
	return memo(s, "host-extended", func() map[string]fetched {
		out := map[string]fetched{}
		c, ok := s.client(roleA)
		if !ok {
			return out
		}
		if ifs.rpc != "" {
			out[a2a.BindingJSONRPC] = getCardRPC(ctx, c, ifs.rpc, "", "positive control: the host's own extended card (no tenant) as A")
		}
		if ifs.rest != "" {
			out[a2a.BindingHTTPJSON] = getCardREST(ctx, c, ifs.rest, "", "positive control: the host's own extended card (no tenant) as A")
		}
		return out
	})
}

// ---- the never-minted routing value ----

func (s *session) neverMinted(ctx context.Context) string {
	return memo(s, "never-minted", func() string {
		var known []string
		for _, r := range []string{roleA, roleB, roleRestricted} {
			if _, ok := principalFor(s.cfg(), r); ok && r != roleRestricted {
				known = append(known, s.listing(ctx, r).rs()...)
			}
		}
		known = append(known, input(s.cfg(), "foreign-r:unapproved")...)
		known = append(known, input(s.cfg(), "foreign-r:uninstalled")...)
		if len(known) == 0 {
			return "ag-extconf-never-minted"
		}
		return neverMinted(known)
	})
}
