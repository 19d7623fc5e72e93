package verify

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/extconf/extconf/harness/a2a"
)

// CardSignatureAny is the verifier's acceptance rule of A2A §8.4.3: the card is authentic when at least one of its
// signatures verifies (a card may carry a signature by a retired key beside the current one during rotation). The
// payload is tried as served and then with default-valued members removed (§8.4.1: members left at their default
// and never explicitly set are omitted before canonicalising). A verifier cannot tell which were set, and a signer
// may have set some explicitly and left others implicit, so every subset of the default-valued members is tried
// (up to maxDefaultSubsets members; beyond that all, each alone, and all but each). The results are those of the reading that verified,
// or of the card as served. When nothing verifies and no signature was shown wrong, an algorithm the harness cannot
// check surfaces as StepUnsupportedAlg.
func CardSignatureAny(rawCard []byte, keys *jose.JSONWebKeySet) ([]SigResult, error) {
	res, err := CardSignature(rawCard, keys)
	if anyOK(res) {
		return res, nil
	}
	if res2, ok := tryDefaultSubsets(rawCard, keys); ok {
		return res2, nil
	}
	if err == nil {
		err = fmt.Errorf("%s: no signature verifies", StepSignatureFailed)
	}
	mismatch, unsupported := false, ""
	for _, r := range res {
		mismatch = mismatch || strings.HasPrefix(r.Err, StepSignatureFailed)
		if unsupported == "" && strings.HasPrefix(r.Err, StepUnsupportedAlg) {
			unsupported = r.Err
		}
	}
	if !mismatch && unsupported != "" {
		err = errors.New(unsupported)
	}
	return res, err
}

// maxDefaultSubsets bounds the exhaustive search (2^6 canonicalisations); with more default-valued members only
// all, each one alone and all but each one are tried (2n+1), so a hostile card costs little.
const maxDefaultSubsets = 6

// maxDefaultSingles bounds the one-at-a-time search: beyond it only all defaults removed is tried.
const maxDefaultSingles = 32

func tryDefaultSubsets(rawCard []byte, keys *jose.JSONWebKeySet) ([]SigResult, bool) {
	v, err := DecodeJSONDoc(rawCard)
	if err != nil {
		return nil, false
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	type member struct {
		parent map[string]any
		key    string
		value  any
	}
	var defaults []member
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if isDefault(e) {
					defaults = append(defaults, member{x, k, e})
					continue
				}
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	for k, e := range m {
		if k == "signatures" {
			continue
		}
		if isDefault(e) {
			defaults = append(defaults, member{m, k, e})
			continue
		}
		walk(e)
	}
	n := len(defaults)
	if n == 0 {
		return nil, false
	}
	var masks []uint
	if n <= maxDefaultSubsets {
		for mask := uint(1); mask < 1<<n; mask++ {
			masks = append(masks, mask)
		}
	} else if n <= maxDefaultSingles {
		all := uint(1)<<n - 1
		masks = []uint{all}
		for i := 0; i < n; i++ {
			masks = append(masks, 1<<i, all&^(1<<i))
		}
	} else {
		masks = []uint{^uint(0)} // all of them (a mask bit per member would overflow)
	}
	for _, mask := range masks {
		for i, d := range defaults {
			if i >= 64 || mask&(1<<i) != 0 {
				delete(d.parent, d.key)
			}
		}
		b, err := json.Marshal(m)
		for _, d := range defaults {
			d.parent[d.key] = d.value
		}
		if err != nil {
			continue
		}
		if res, _ := CardSignature(b, keys); anyOK(res) {
			return res, true
		}
	}
	return nil, false
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
