package terms

import (
	"crypto/tls"
	"encoding/json"
	"fmt"
	"maps"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/extconf/extconf/fixtures/sow"
	"github.com/extconf/extconf/fixtures/sow/sowdoc"
	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/sabotage"
)

// serveProposal serves a public proposal, reformatted (pretty-printed, members reversed, "/" escaped).
func (a *agent) serveProposal(w http.ResponseWriter, r *http.Request) {
	name, ok := strings.CutSuffix(r.PathValue("file"), ".sow.json")
	if !ok || (name != reconcile && name != categorise) {
		http.NotFound(w, r)
		return
	}
	if name == reconcile && a.set.On(sabotage.TermsWithdrawnURL404) {
		a.mu.Lock()
		withdrawn := a.rotation > 0 && a.versioned()
		a.mu.Unlock()
		if withdrawn {
			http.NotFound(w, r) // a bare 404 where §8 asks to keep serving the withdrawn bytes
			return
		}
	}
	if name == reconcile && a.set.On(sabotage.TermsURLServesNonJSON) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte("<!doctype html><html><body><h1>Stonework terms</h1><p>Ask us for a quote.</p></body></html>"))
		return
	}
	a.writeDoc(w, name)
}

func (a *agent) writeDoc(w http.ResponseWriter, name string) {
	a.mu.Lock()
	doc := a.served[name]
	a.mu.Unlock()
	b, err := sowdoc.Reformat(doc)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(b)
}

// serveRestricted serves the directed proposal only to the party it names (§3 rule 5).
func (a *agent) serveRestricted(w http.ResponseWriter, r *http.Request) {
	if r.PathValue("file") != directed+".sow.json" {
		http.NotFound(w, r)
		return
	}
	party := a.party(r)
	allowed := party == PartyA || a.set.On(sabotage.TermsDirectedProposalPublic) ||
		(party == PartyB && a.set.On(sabotage.TermsDirectedProposalOtherParty))
	switch {
	case allowed:
		a.writeDoc(w, directed)
	case party == "":
		w.Header().Set("WWW-Authenticate", "Bearer")
		http.Error(w, "authentication required", http.StatusUnauthorized)
	default:
		http.Error(w, "not offered to you", http.StatusForbidden)
	}
}

func (a *agent) party(r *http.Request) string {
	scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return a.tokens[strings.TrimSpace(tok)]
}

func (a *agent) serveArchive(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	b, ok := a.archive[r.PathValue("file")]
	a.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}

// rotate is the test-only change hook: the reconcile-statement standing proposal is re-signed (a new signed_at,
// so a new digest), the old bytes archived (§8 SHOULD), and the card updated and re-signed (§8 MUST).
func (a *agent) rotate(w http.ResponseWriter, r *http.Request) {
	if r.PathValue("token") != a.hookToken {
		http.NotFound(w, r)
		return
	}
	a.mu.Lock()
	if r.URL.Query().Get("revert") == "1" {
		a.served, a.digests, a.card, a.rotation = maps.Clone(a.initial.served), maps.Clone(a.initial.digests), a.initial.card, 0
		a.versions = map[int][]byte{}
		a.mu.Unlock()
		a.srv.Reload()
		writeJSONValue(w, map[string]any{"reverted": true})
		return
	}
	old := a.served[reconcile]
	oldDigest, _ := sowdoc.Digest(old)
	if b, err := sowdoc.Reformat(old); err == nil {
		a.archive[strings.TrimPrefix(oldDigest, "sha256:")+".sow.json"] = b
	}
	a.rotation++
	signedAt := time.Date(2026, 9, 1, 9, 0, 0, 0, time.UTC).AddDate(0, 0, a.rotation).Format(time.RFC3339)
	doc, err := sowdoc.Resign(old, sow.ProviderKey(), signedAt, sowdoc.KeyFormOf(old))
	if err != nil {
		a.mu.Unlock()
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if a.versioned() {
		// The old url keeps the withdrawn bytes (unless terms.withdrawn-url-404); the changed proposal lives at
		// /terms/versions/<n>/.
		a.versions[a.rotation+1] = doc
	} else {
		a.served[reconcile] = doc
	}
	newDigest, _ := sowdoc.Digest(doc)
	if !a.set.On(sabotage.TermsCardNotUpdatedOnChange) {
		a.digests[reconcile] = newDigest
		var keep json.RawMessage
		if a.set.On(sabotage.TermsCardNotResignedOnChange) {
			var m map[string]json.RawMessage
			_ = json.Unmarshal(a.card, &m)
			keep = m["signatures"]
		}
		if card, err := a.signedPublicCard(keep); err == nil {
			a.card = card
		}
	}
	a.mu.Unlock()
	a.srv.Reload()
	writeJSONValue(w, map[string]any{"changed": a.base + "/terms/" + reconcile + ".sow.json", "digest": newDigest,
		"archived": a.base + "/terms/archive/" + strings.TrimPrefix(oldDigest, "sha256:") + ".sow.json"})
}

// versioned reports whether a change publishes the changed proposal at a new url, keeping the old url's bytes: the
// default, unless InPlaceChange, and unless terms.card-not-updated-on-change, whose fault is serving the new document
// at the url the stale card still lists.
func (a *agent) versioned() bool {
	return !a.opt.InPlaceChange && !a.set.On(sabotage.TermsCardNotUpdatedOnChange)
}

// serveVersion serves a changed proposal at its versioned url (unless InPlaceChange).
func (a *agent) serveVersion(w http.ResponseWriter, r *http.Request) {
	var n int
	if _, err := fmt.Sscanf(r.PathValue("n"), "%d", &n); err != nil || r.PathValue("file") != reconcile+".sow.json" {
		http.NotFound(w, r)
		return
	}
	a.mu.Lock()
	doc, ok := a.versions[n]
	a.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	b, err := sowdoc.Reformat(doc)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}

// startThird serves the public proposals from a second TLS origin (ThirdPartyHost).
func (a *agent) startThird() error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	cert, err := testpki.IssueLeaf()
	if err != nil {
		_ = ln.Close()
		return err
	}
	a.thirdBase = "https://" + ln.Addr().String()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /terms/{file}", a.serveProposal)
	mux.HandleFunc("GET /terms/versions/{n}/{file}", a.serveVersion)
	a.third = &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	tln := tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
	go func() { _ = a.third.Serve(tln) }()
	return nil
}

func (a *agent) closeThird() {
	if a.third != nil {
		_ = a.third.Close()
	}
}

// ClaimMap is the operator input for TE-4.1b/c: each span of the card's prose that states a term or a data-use
// claim, the clause of a listed proposal that backs it, and the value the span states.
type ClaimMap struct {
	Claims []Claim `json:"claims"`
}

// Claim maps one prose span to a clause path.
type Claim struct {
	Kind     string `json:"kind"` // "term" | "data-use"
	Span     string `json:"span"`
	Proposal string `json:"proposal"` // the entry url
	Path     string `json:"path"`     // dotted path in the proposal
	Value    any    `json:"value"`    // what the span states
}

func (a *agent) serveClaims(w http.ResponseWriter, r *http.Request) {
	term, tv := a.termSpan()
	data, dv := a.dataSpan()
	a.mu.Lock()
	u := a.recURL()
	a.mu.Unlock()
	writeJSONValue(w, ClaimMap{Claims: []Claim{
		{Kind: "term", Span: term, Proposal: u, Path: "termination.convenience_notice_hours", Value: tv},
		{Kind: "data-use", Span: data, Proposal: u, Path: "confidentiality.retention.max_days", Value: dv},
	}})
}

func writeJSONValue(w http.ResponseWriter, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}

// startPlain serves the public proposals on plain HTTP (only for the entry-url-http sabotage).
func (a *agent) startPlain() error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	a.plainBase = "http://" + ln.Addr().String()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /terms/{file}", a.serveProposal)
	a.plain = &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = a.plain.Serve(ln) }()
	return nil
}

func (a *agent) closePlain() {
	if a.plain != nil {
		_ = a.plain.Close()
	}
}
