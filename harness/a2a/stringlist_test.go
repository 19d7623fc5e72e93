package a2a

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestStringListReadsBothForms: the proto-JSON wrapper and the Go SDK's bare array (a2aproject/a2a-go#430) decode to
// the same scopes, so a card written by a2a-go/v2 with a security requirement stays readable.
func TestStringListReadsBothForms(t *testing.T) {
	for _, in := range []string{
		`[{"schemes":{"bearer":{"list":["read","write"]}}}]`,
		`[{"schemes":{"bearer":["read","write"]}}]`,
	} {
		var got []SecurityRequirement
		if err := json.Unmarshal([]byte(in), &got); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if want := []string{"read", "write"}; len(got) != 1 || !reflect.DeepEqual(got[0].Schemes["bearer"].List, want) {
			t.Errorf("%s: got %+v", in, got)
		}
	}
	for _, in := range []string{`[{"schemes":{"bearer":{}}}]`, `[{"schemes":{"bearer":[]}}]`} {
		var got []SecurityRequirement
		if err := json.Unmarshal([]byte(in), &got); err != nil || len(got[0].Schemes) != 1 {
			t.Errorf("%s: %v %+v", in, err, got)
		}
	}
	var bad []SecurityRequirement
	if err := json.Unmarshal([]byte(`[{"schemes":{"bearer":"read"}}]`), &bad); err == nil {
		t.Error("a string scope list decoded")
	}
}
