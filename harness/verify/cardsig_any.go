package verify

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/extconf/extconf/harness/a2a"
)

// CardSignatureAny is the verifier's acceptance rule of A2A §8.4.3: the card is authentic when at least one of its
// signatures verifies (a card may carry a signature by a retired key beside the current one during rotation). The
// payload is tried as served and then with default-valued members removed (§8.4.1: members left at their default
// and never explicitly set are omitted before canonicalising; a verifier cannot tell which were set, so both
// readings are tried). The results are those of the reading that verified, or of the card as served.
func CardSignatureAny(rawCard []byte, keys *jose.JSONWebKeySet) ([]SigResult, error) {
	res, err := CardSignature(rawCard, keys)
	if anyOK(res) {
		return res, nil
	}
	if stripped, serr := StripDefaults(rawCard); serr == nil {
		if res2, _ := CardSignature(stripped, keys); anyOK(res2) {
			return res2, nil
		}
	}
	if err == nil {
		err = fmt.Errorf("%s: no signature verifies", StepSignatureFailed)
	}
	return res, err
}

func anyOK(res []SigResult) bool {
	for _, r := range res {
		if r.OK {
			return true
		}
	}
	return false
}

// StripDefaults removes, at every level except inside signatures, members whose value is a ProtoJSON default: false,
// 0, "" and [].
func StripDefaults(rawCard []byte) ([]byte, error) {
	v, err := DecodeJSONDoc(rawCard)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("not a JSON object")
	}
	sigs, hasSigs := m["signatures"]
	delete(m, "signatures")
	stripDefaults(m)
	if hasSigs {
		m["signatures"] = sigs
	}
	return json.Marshal(m)
}

func stripDefaults(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if isDefault(e) {
				delete(x, k)
				continue
			}
			stripDefaults(e)
		}
	case []any:
		for _, e := range x {
			stripDefaults(e)
		}
	}
}

func isDefault(v any) bool {
	switch x := v.(type) {
	case bool:
		return !x
	case string:
		return x == ""
	case json.Number:
		f, err := x.Float64()
		return err == nil && f == 0
	case []any:
		return len(x) == 0
	}
	return false
}

// CardKeysWithJKU returns the trusted keys plus the public keys of every JWK Set a signature's protected "jku" names
// on the card's own origin, fetched through c (a jku elsewhere is never followed and is returned in offOrigin).
func CardKeysWithJKU(ctx context.Context, c *a2a.Client, cardURL string, rawCard []byte, trusted *jose.JSONWebKeySet) (keys *jose.JSONWebKeySet, exs []*a2a.Exchange, offOrigin []string) {
	keys = &jose.JSONWebKeySet{}
	if trusted != nil {
		keys.Keys = append(keys.Keys, trusted.Keys...)
	}
	var top struct {
		Signatures []struct {
			Protected string `json:"protected"`
		} `json:"signatures"`
	}
	_ = json.Unmarshal(rawCard, &top)
	seen := map[string]bool{}
	for _, s := range top.Signatures {
		b, err := base64.RawURLEncoding.DecodeString(s.Protected)
		if err != nil {
			continue
		}
		var h struct {
			JKU string `json:"jku"`
		}
		_ = json.Unmarshal(b, &h)
		if h.JKU == "" || seen[h.JKU] {
			continue
		}
		seen[h.JKU] = true
		if !sameOrigin(h.JKU, cardURL) {
			offOrigin = append(offOrigin, h.JKU)
			continue
		}
		body, ex, err := c.FetchJSON(ctx, h.JKU, a2a.Call{Note: "card signing keys (jku on the card's origin)"})
		exs = append(exs, ex)
		if err != nil {
			continue
		}
		var set jose.JSONWebKeySet
		if json.Unmarshal(body, &set) == nil {
			for _, k := range set.Keys {
				if k.IsPublic() {
					keys.Keys = append(keys.Keys, k)
				}
			}
		}
	}
	return keys, exs, offOrigin
}

func sameOrigin(a, b string) bool {
	ua, err1 := url.Parse(a)
	ub, err2 := url.Parse(b)
	return err1 == nil && err2 == nil && ua.Scheme == ub.Scheme && strings.EqualFold(ua.Host, ub.Host) &&
		(ua.Scheme == "https" || ua.Scheme == "http")
}
