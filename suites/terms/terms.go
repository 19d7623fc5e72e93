package terms

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"syscall"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/target"
	vterms "github.com/extconf/extconf/refclients/terms"
)

// Role is the target role whose card carries the extension.
const Role = "terms"

// Operator-supplied roles (target configuration "agents"): the change hook of TE-8.3a/b and the claim map of
// TE-4.1b/c. The target configuration has no per-document section, so these ride as extra roles.
const (
	RoleChangeHook = "terms.change-hook"
	RoleClaims     = "terms.claims"
)

// Suite returns the terms suite. Agent rows are inapplicable when the card does not declare the extension (the
// engine's rule, which config init and check read too); consumer rows exercise the harness itself and always run.
func Suite() harness.Suite {
	return harness.Suite{
		Document: "terms",
		// nil: the engine's rule, the card of role terms declares the URI exactly (§2), as declaration reads it.
		Register: func(e *harness.Env) {
			s := &state{e: e, docs: map[string]*fetched{}}
			registerAgentSpecs(s)
			registerOfferingSpecs(s)
			registerConsumerSpecs(s)
			registerChangeSpecs(s)
		},
	}
}

// state is one run's shared reads of the target.
type state struct {
	e    *harness.Env
	mu   sync.Mutex
	docs map[string]*fetched // proposal url → its fetch
	pc   *a2a.Client
}

type fetched struct {
	body   []byte
	parsed map[string]any
	ex     *a2a.Exchange
	err    error
}

// decl is the card's terms declaration as served (raw members, so odd types are seen as they are).
type decl struct {
	card    *a2a.AgentCard
	raw     []byte
	ex      *a2a.Exchange
	entry   map[string]any // the capabilities.extensions[] member with the exact URI
	params  map[string]any // nil when params is absent or not an object
	entries []rawEntry     // nil when proposals is absent or not an array
}

type rawEntry struct {
	index int
	obj   map[string]any // nil when the item is not an object
	url   string
	dig   string
	sow   string
}

// declaration fetches the public card (once per run) and finds the declaration; the spec is inapplicable when the
// card does not declare the extension (§2: the URI is matched exactly).
func (s *state) declaration(w *harness.W, row string) *decl {
	card, raw, ex := w.Card(Role)
	d := &decl{card: card, raw: raw, ex: ex}
	var top struct {
		Capabilities struct {
			Extensions []map[string]any `json:"extensions"`
		} `json:"capabilities"`
	}
	_ = json.Unmarshal(raw, &top)
	for _, x := range top.Capabilities.Extensions {
		if x["uri"] == vterms.URI {
			d.entry = x
			break
		}
	}
	if d.entry == nil {
		w.Inapplicable(fmt.Sprintf("the card (%s) does not declare %s", ex.Summary(), vterms.URI))
	}
	d.params, _ = d.entry["params"].(map[string]any)
	if list, ok := d.params["proposals"].([]any); ok {
		d.entries = []rawEntry{}
		for i, it := range list {
			m, _ := it.(map[string]any)
			str := func(k string) string { v, _ := m[k].(string); return v }
			d.entries = append(d.entries, rawEntry{index: i, obj: m, url: str("url"), dig: str("digest"), sow: str("sow")})
		}
	}
	return d
}

// needEntries blocks the spec when the declaration has no entries to check (TE-3.2a/b decide that).
func (d *decl) needEntries(w *harness.W) {
	if len(d.entries) == 0 {
		w.Blocked("the declaration lists no proposals entries to check (see TE-3.2a and TE-3.2b)")
	}
}

// proposalClient is the client proposals are fetched with: the run's recorder, limits and trusted CAs, fresh
// (no-cache) fetches, and a URL policy that never lets a card send the harness to a private address it did not
// come from (loopback only when the target is the in-process mock).
func (s *state) proposalClient() *a2a.Client {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pc != nil {
		return s.pc
	}
	cardURL, _ := s.e.Target.CardURL(Role)
	cardHost := ""
	if u, err := url.Parse(cardURL); err == nil {
		cardHost = u.Hostname()
	}
	mockOnly := s.e.Target.Kind == target.KindMock
	check := func(u *url.URL) error { // after the run's reach (the target's origins, allowOrigins, loopback)
		return checkProposalHost(u.Hostname(), cardHost, mockOnly)
	}
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		d := &net.Dialer{Control: func(_, address string, _ syscall.RawConn) error {
			host, _, _ := net.SplitHostPort(address)
			if err := checkProposalHost(host, cardHost, mockOnly); err != nil {
				return fmt.Errorf("%w: %w", errHostRefused, err)
			}
			return nil
		}}
		return d.DialContext(ctx, network, addr)
	}
	s.pc = s.e.NewClient(a2a.Options{Limits: s.e.Client.Limits(), RootCAs: s.e.Target.RootCAs, Recorder: s.e.Client.Recorder(),
		CheckURL: check, DialContext: dial, Header: http.Header{"Cache-Control": {"no-cache"}}})
	return s.pc
}

// errHostRefused marks a dial the proposal client refused (a private or loopback address off the card's host).
var errHostRefused = errors.New("address refused by the harness's reach rule")

// unreachable reports whether err is the harness's own refusal to reach a URL (the reach rule, design "Reach"), not
// anything the publisher did. Terms §8 lets a proposal live on a third-party host, so such a fetch blocks the row,
// naming the origin to allow, and never fails it.
func unreachable(err error) bool {
	return errors.Is(err, a2a.ErrURLRefused) || errors.Is(err, errHostRefused)
}

// reachBlock is the blocked reason for a proposal URL the run may not reach.
func reachBlock(index int, raw string, err error) string {
	origin := raw
	u, perr := url.Parse(raw)
	if perr == nil && u.Scheme != "http" && u.Scheme != "https" {
		// No origin to allow: TE-3.3c fails the entry for its scheme; nothing is fetched from it.
		return fmt.Sprintf("proposals[%d] (%s) is not an http(s) URL, so nothing is fetched from it (TE-3.3c grades the scheme) (%v)", index, raw, err)
	}
	if perr == nil && u.Host != "" {
		origin = a2a.Origin(u)
	}
	return fmt.Sprintf("proposals[%d] (%s) is hosted on %s, which this run may not reach: terms §8 allows third-party hosting "+
		"(\"A proposal hosted elsewhere adds that host to the set of parties who can make verification fail\"), so add %q to "+
		"limits.allowOrigins in the target configuration to check it (%v)", index, raw, origin, origin, err)
}

// checkProposalHost refuses, before dialing, hosts a hostile card could use to reach the operator's network:
// loopback, private and link-local addresses, unless they are the card's own host. Against the mock only
// loopback is allowed at all.
func checkProposalHost(host, cardHost string, mockOnly bool) error {
	ip := net.ParseIP(host)
	if mockOnly {
		if ip == nil || !ip.IsLoopback() {
			return fmt.Errorf("host %q is not a loopback address (the reference agents run on loopback only)", host)
		}
		return nil
	}
	if strings.EqualFold(host, cardHost) || ip == nil {
		return nil // names are checked again at dial time, by address
	}
	if ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsUnspecified() || ip.IsMulticast() {
		if cip := net.ParseIP(cardHost); cip != nil && cip.Equal(ip) {
			return nil
		}
		return fmt.Errorf("address %s is private, loopback or link-local and not the card's host", ip)
	}
	return nil
}

// fetch GETs a listed proposal once per run.
func (s *state) fetch(w *harness.W, u string) *fetched {
	s.mu.Lock()
	f, ok := s.docs[u]
	s.mu.Unlock()
	if ok {
		return f
	}
	f = &fetched{}
	f.body, f.ex, f.err = vterms.FetchProposal(w.Ctx(), s.proposalClient(), u, a2a.Call{})
	if f.err == nil {
		f.parsed, _ = vterms.ParseProposal(f.body)
	}
	s.mu.Lock()
	s.docs[u] = f
	s.mu.Unlock()
	return f
}

// fetchedEntries fetches every entry's url; when one cannot be fetched and parsed the spec is blocked on TE-3.3d.
func (s *state) fetchedEntries(w *harness.W, d *decl) []*fetched {
	d.needEntries(w)
	var out []*fetched
	for _, en := range d.entries {
		if en.url == "" {
			w.Blocked(fmt.Sprintf("proposals[%d] has no url (see TE-3.3a)", en.index))
		}
		f := s.fetch(w, en.url)
		if f.err != nil && unreachable(f.err) {
			w.Blocked(reachBlock(en.index, en.url, f.err))
		}
		if f.err != nil {
			w.BlockUnreached(f.ex, f.err)
			w.Blocked(fmt.Sprintf("proposals[%d] (%s) could not be fetched and parsed (see TE-3.3d): %v", en.index, en.url, f.err))
		}
		out = append(out, f)
	}
	return out
}

// listedVerifies is the agent-side §6 check of one listed entry (scheme aside, which TE-3.3c judges): fetched,
// committed by digest, provider-signed, standing. It returns "" or the failed step and why.
func (s *state) listedVerifies(w *harness.W, en rawEntry) (string, *fetched) {
	if en.url == "" {
		return "the entry has no url", nil
	}
	f := s.fetch(w, en.url)
	if f.err != nil {
		return "fetch: " + f.err.Error(), f
	}
	if d, err := vterms.ProposalDigest(f.body); err != nil || d != en.dig {
		return fmt.Sprintf("digest: the document hashes to %s, the entry commits to %q", d, en.dig), f
	}
	if err := vterms.VerifyProviderSignature(f.body); err != nil {
		return "signature: " + err.Error(), f
	}
	if p := append(vterms.StandingProblems(f.parsed), vterms.CompletenessProblems(f.parsed)...); len(p) > 0 {
		return "standing: " + strings.Join(p, "; "), f
	}
	return "", f
}
