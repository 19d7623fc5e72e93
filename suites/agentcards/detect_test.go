package agentcards

import (
	"crypto/rand"
	"encoding/base64"
	"regexp"
	"strings"
	"testing"
)

func TestEncodesFindsEveryPlantedForm(t *testing.T) {
	for _, id := range []string{"acme", "ws-helpdesk", "alice", "tenant-7f3c", "bob", "ws-ledger-ops"} {
		for _, f := range plantedForms(id) {
			if ok, _ := encodes(f, id); !ok {
				t.Errorf("%q: not found in %q", id, f)
			}
		}
	}
	// The RFC's negative example.
	if ok, how := encodes("tenant-acme-agent-resolver", "acme"); !ok || how != "literally" {
		t.Errorf("tenant-acme-agent-resolver: %v %q", ok, how)
	}
}

// Opaque values (a keyed MAC, base64url) must not read as encoding short identifiers by chance.
func TestEncodesIgnoresOpaqueValues(t *testing.T) {
	// Three-letter ids ("bob") occur literally in about one random value in 1600; the four-letter ones and
	// longer in about one in 50000, which is what this bounds.
	ids := []string{"acme", "beta", "alice", "ws-helpdesk", "ws-ledger-ops", "auditor-noread"}
	hits := 0
	for range 2000 {
		var b [16]byte
		_, _ = rand.Read(b[:])
		r := "ag-" + base64.RawURLEncoding.EncodeToString(b[:])
		for _, id := range ids {
			if ok, _ := encodes(r, id); ok {
				hits++
			}
		}
	}
	if hits > 2 {
		t.Errorf("%d false positives over 12000 checks", hits)
	}
	if ok, _ := encodes("ag-xx", "ab"); ok {
		t.Error("identifiers shorter than 3 characters are not searched")
	}
}

func TestNeverMintedIsShapedLikeTheKnownValues(t *testing.T) {
	pattern := regexp.MustCompile(`^[A-Za-z0-9._~-]{1,128}$`)
	cases := [][]string{
		{"ag-8IgZHgxZRAXBvJwtsUSxQb", "ag-oyYc21fo_mf-Y6RZV18L2o", "ag-mMgci53T-1tssid2XGrK2B"},
		{"ag-7f3c9e"},
		{"tenant-acme-resolver", "tenant-acme-summarizer"},
	}
	for _, known := range cases {
		v := neverMinted(known)
		if contains(known, v) || len(v) != len(known[0]) || !pattern.MatchString(v) {
			t.Errorf("neverMinted(%v) = %q", known, v)
		}
		if known[0][:3] == "ag-" && !strings.HasPrefix(v, "ag-") {
			t.Errorf("neverMinted(%v) = %q lost the common prefix", known, v)
		}
	}
}

func TestFindCanary(t *testing.T) {
	c := "CANARY-SYSPROMPT-XYZ"
	for _, doc := range []string{
		`{"description":"x CANARY-SYSPROMPT-XYZ y"}`,
		`{"description":"x \u0043ANARY-SYSPROMPT-XYZ"}`,
		`{"documentationUrl":"https://h/?t=CANARY%2DSYSPROMPT%2DXYZ"}`,
		`{"skills":[{"examples":["` + base64.StdEncoding.EncodeToString([]byte("pre "+c)) + `"]}]}`,
	} {
		if ok, _ := findCanary([]byte(doc), c); !ok {
			t.Errorf("not found in %s", doc)
		}
	}
	if ok, _ := findCanary([]byte(`{"description":"clean"}`), c); ok {
		t.Error("found in a clean card")
	}
	if ok, _ := findCanary(plant([]byte(`{"name":"n"}`), c), c); !ok {
		t.Error("the planted control is not found")
	}
}

func TestCardProblems(t *testing.T) {
	good := `{"name":"Resolver","description":"d","version":"1.4.0","supportedInterfaces":[{"url":"https://h/jsonrpc","protocolBinding":"JSONRPC","protocolVersion":"1.0","tenant":"ag-1"}],` +
		`"capabilities":{"streaming":true},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[{"id":"s","name":"S","description":"d","tags":["t"]}]}`
	if p := cardProblems([]byte(good)); len(p) != 0 {
		t.Fatalf("a valid card: %v", p)
	}
	for name, bad := range map[string]string{
		"no default modes": strings.Replace(good, `"defaultInputModes":["text/plain"],`, "", 1),
		"version 0.3":      strings.Replace(good, `"protocolVersion":"1.0"`, `"protocolVersion":"0.3"`, 1),
		"null member":      strings.Replace(good, `"description":"d","version"`, `"description":null,"version"`, 1),
		"kind":             strings.Replace(good, `{"name"`, `{"kind":"agent-card","name"`, 1),
		"skill without id": strings.Replace(good, `"id":"s",`, "", 1),
	} {
		if p := cardProblems([]byte(bad)); len(p) == 0 {
			t.Errorf("%s: accepted", name)
		}
	}
}

// Issue #38: the lower-case base32 example is found; reversal, ROT13 and a composition are found for
// identifiers long enough, and reported weakly (the row blocks) for short ones.
func TestEncodesNewFamilies(t *testing.T) {
	if ok, how := encodes("ag-mfrw2zi-x1", "acme"); !ok || !strings.Contains(how, "base32") {
		t.Errorf("lower-case base32 of acme: %v %q", ok, how)
	}
	for _, r := range []string{"ag-ksedpleh-sw-x1", "ag-jf-urycqrfx-x1", "ag-" + string(reversed(rot13([]byte("ws-helpdesk")))) + "-q"} {
		if ok, how := encodes(r, "ws-helpdesk"); !ok {
			t.Errorf("%q: not found (%q)", r, how)
		}
	}
	if ok, _ := encodes("ag-emca-x1", "acme"); ok {
		t.Error("a reversed 4-letter identifier counts as encoded (too short to tell from chance)")
	}
	if how := encodesWeakly("ag-emca-x1", "acme"); how == "" {
		t.Error("a reversed 4-letter identifier is not reported weakly")
	}
	if !strings.Contains(encodingsChecked, "ROT13") || !strings.Contains(encodingsChecked, "composition") {
		t.Errorf("the families tried are not named: %q", encodingsChecked)
	}
}
