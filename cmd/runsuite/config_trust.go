package main

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/harness/verify"
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
	for d, raw := range p.raws {
		if p.declared[d] {
			add(trustedKeysAsk(ctx, p.client, p.urls[d], raw, cfg))
		}
	}
	sort.Strings(out)
	return out
}
