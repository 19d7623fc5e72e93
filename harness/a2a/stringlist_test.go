package a2a

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestStringListReadsBothForms: the ProtoJSON wrapper and the bare array a2a-go v2 writes decode alike, so a
// card from a host on the official Go SDK is read, not refused whole.
func TestStringListReadsBothForms(t *testing.T) {
	for _, raw := range []string{
		`{"schemes":{"platformToken":{"list":["agents:read"]}}}`,
		`{"schemes":{"platformToken":["agents:read"]}}`,
	} {
		var r SecurityRequirement
		if err := json.Unmarshal([]byte(raw), &r); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if got := r.Schemes["platformToken"].List; !reflect.DeepEqual(got, []string{"agents:read"}) {
			t.Errorf("%s: list %v", raw, got)
		}
	}
	var r SecurityRequirement
	if err := json.Unmarshal([]byte(`{"schemes":{"x":"scope"}}`), &r); err == nil {
		t.Error("a string where the list belongs decoded without error")
	}
	b, _ := json.Marshal(SecurityRequirement{Schemes: map[string]StringList{"x": {List: []string{"s"}}}})
	if string(b) != `{"schemes":{"x":{"list":["s"]}}}` {
		t.Errorf("marshal %s, want the ProtoJSON form", b)
	}
}
