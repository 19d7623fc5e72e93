package main

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/harness/verify"
	"github.com/extconf/extconf/suites"
)

// Trust the run cannot derive: a CA the operator did not configure, a signing key off the card's origin. config
// init and check ask for them by member, since without them the run blocks the rows that read those URLs.

// unknownAuthority reports whether err is a TLS certificate from an authority the client does not trust.
func unknownAuthority(err error) bool {
	var ua x509.UnknownAuthorityError
	return err != nil && (errors.As(err, &ua) || strings.Contains(err.Error(), "certificate signed by unknown authority"))
}

// caFileAsk is the request for caFile after fetching u failed with err (nil when err is not an unknown authority).
func caFileAsk(u string, err error) string {
	if !unknownAuthority(err) {
		return ""
	}
	return fmt.Sprintf("caFile: %s is served with a certificate from an authority this configuration does not trust: set caFile to the PEM file of the CA that issued it", u)
}

// trustedKeysAsk is the request for trustedKeys when a signature of the card at cardURL names a key neither
// trustedKeys nor a jku on the card's origin gives ("" when the card is unsigned or a signature verifies).
func trustedKeysAsk(ctx context.Context, cl *a2a.Client, cardURL string, raw []byte, cfg target.Config) string {
	var top struct {
		Signatures []json.RawMessage `json:"signatures"`
	}
	if json.Unmarshal(raw, &top) != nil || len(top.Signatures) == 0 {
		return ""
	}
	var trusted *jose.JSONWebKeySet
	if len(cfg.TrustedKeys) > 0 {
		var k jose.JSONWebKeySet
		if json.Unmarshal(cfg.TrustedKeys, &k) == nil {
			trusted = &k
		}
	}
	keys, _, off := verify.CardKeysWithJKU(ctx, cl, cardURL, raw, trusted)
	_, err := verify.CardSignatureAny(raw, keys)
	if err == nil || (!strings.Contains(err.Error(), verify.StepUnknownKID) && len(off) == 0) {
		return "" // verified, or failed on something a key cannot fix (the run grades it)
	}
	why := err.Error()
	if len(off) > 0 {
		why = "its jku is off the card's origin and never followed: " + strings.Join(off, ", ")
	}
	return fmt.Sprintf("trustedKeys: the signature of the card at %s names a key the run cannot find (%s): add the signer's public key to trustedKeys (a JWK Set)", cardURL, why)
}

// trustAsks lists, once each, what the probed cards need of caFile and trustedKeys.
func trustAsks(ctx context.Context, p *probe, cfg target.Config) []string {
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, u := range p.fetchErrs {
		add(caFileAsk(u.url, u.err))
	}
	for _, u := range p.reachableURLs(cfg) {
		_, _, err := p.client.FetchJSON(ctx, u, a2a.Call{Note: "config: trust of " + u})
		add(caFileAsk(u, err))
	}
	for d, raw := range p.raws {
		if p.declared[d] {
			add(trustedKeysAsk(ctx, p.client, p.urls[d], raw, cfg))
		}
	}
	sort.Strings(out)
	return out
}

// reachableURLs are the https URLs the declared cards' extension params name (proposals, documents) and those the
// documents' operator input names (harness.Document.Origins), one per origin, on an origin the run may reach other
// than the card's own (already fetched): an origin limits.allowOrigins or the operator input names. A private CA
// behind one of them blocks the rows that read it, so config init asks for caFile before the run.
func (p *probe) reachableURLs(cfg target.Config) []string {
	allowed := map[string]bool{}
	if l, err := harness.ParseLimits(cfg.Limits); err == nil {
		for _, o := range l.AllowOrigins {
			allowed[strings.TrimRight(o, "/")] = true
		}
	}
	var named []string
	for _, d := range suites.Documents() {
		if p.declared[d.ID()] {
			for _, u := range d.Origins(cfg) {
				if o := originOf(u); o != "" {
					allowed[o] = true
					named = append(named, u)
				}
			}
		}
	}
	cards := map[string]bool{}
	for _, u := range p.urls {
		cards[originOf(u)] = true
	}
	for d, raw := range p.raws {
		if !p.declared[d] {
			continue
		}
		var card struct {
			Capabilities struct {
				Extensions []struct {
					Params any `json:"params"`
				} `json:"extensions"`
			} `json:"capabilities"`
		}
		_ = json.Unmarshal(raw, &card)
		for _, x := range card.Capabilities.Extensions {
			named = append(named, httpsStrings(x.Params)...)
		}
	}
	seen := map[string]bool{}
	var out []string
	for _, u := range named {
		o := originOf(u)
		if o == "" || !strings.HasPrefix(o, "https://") || cards[o] || !allowed[o] || seen[o] {
			continue
		}
		seen[o] = true
		out = append(out, u)
	}
	sort.Strings(out)
	return out
}

func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// httpsStrings lists the https URLs among v's strings.
func httpsStrings(v any) []string {
	var out []string
	switch x := v.(type) {
	case string:
		if strings.HasPrefix(x, "https://") {
			out = append(out, x)
		}
	case []any:
		for _, e := range x {
			out = append(out, httpsStrings(e)...)
		}
	case map[string]any:
		for _, e := range x {
			out = append(out, httpsStrings(e)...)
		}
	}
	return out
}
