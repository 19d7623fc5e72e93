package schemaiface

import "testing"

// The resolution locator reading (SI-7.5, SI-12.1) and the dialect comparison (SI-6.10), issue #40.
func TestLocatorReading(t *testing.T) {
	for _, c := range []struct {
		name string
		v    any
		want bool
	}{
		{"media_type", "application/schema+json", false},
		{"note", "inline copy of the publisher's schema", false},
		{"uri", "https://schemas.example/out.json", true},
		{"schema_url", "x", true},
		{"href", "#/x", true},
		{"origin", "https://schemas.example/out.json", true},
		{"copy", "/etc/schemas/out.json", true},
		{"registry_version", "1.0", false},
	} {
		if got := isLocator(c.name, c.v); got != c.want {
			t.Errorf("isLocator(%q, %v) = %v, want %v", c.name, c.v, got, c.want)
		}
	}
	if !sameDialect("https://json-schema.org/draft/2020-12/schema#", "https://json-schema.org/draft/2020-12/schema") {
		t.Error("an empty fragment names the same dialect")
	}
	if sameDialect("http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft/2020-12/schema") {
		t.Error("draft-07 is not 2020-12")
	}
}
