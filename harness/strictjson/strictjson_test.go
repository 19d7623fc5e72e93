package strictjson

import (
	"encoding/json"
	"strings"
	"testing"
)

type inner struct {
	MaxBody int `json:"maxBody"`
}

type outer struct {
	Limits  *inner            `json:"limits,omitempty"`
	Agents  map[string]string `json:"agents,omitempty"`
	Items   []inner           `json:"items,omitempty"`
	Raw     json.RawMessage   `json:"raw,omitempty"`
	Ignored string            `json:"-"`
}

func TestDecodeRefusesByName(t *testing.T) {
	for in, want := range map[string]string{
		`{"Limits": {"maxBody": 5}}`:               `unknown member "Limits" at $ (member names are case-sensitive: did you mean "limits"?)`,
		`{"limits": {"MAXBODY": 5}}`:               `unknown member "MAXBODY" at $.limits`,
		`{"limits": {"maxBody": 5, "maxBody": 6}}`: `duplicate member "maxBody" at $.limits`,
		`{"items": [{"maxbody": 1}]}`:              `unknown member "maxbody" at $.items[0]`,
		`{"agents": {"a": "x"}} {"agents": {}}`:    "trailing data",
		`{"limits": {}} x`:                         "trailing data",
		`{"limts": {}}`:                            `unknown member "limts" at $`,
	} {
		var o outer
		err := Decode([]byte(in), &o)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Decode(%s) = %v, want an error containing %q", in, err, want)
		}
	}
}

func TestDecodeAcceptsExact(t *testing.T) {
	var o outer
	if err := Decode([]byte(`{"limits": {"maxBody": 5}, "agents": {"Any-Key": "x"}, "raw": {"Whatever": 1}}`), &o); err != nil {
		t.Fatal(err)
	}
	if o.Limits.MaxBody != 5 || o.Agents["Any-Key"] != "x" {
		t.Fatalf("decoded %+v", o)
	}
}
