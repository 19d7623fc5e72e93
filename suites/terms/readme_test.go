package terms

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/extconf/extconf/harness/catalog"
)

// TestREADMECounts: the README's row counts are the catalog's (they drifted once; #39).
func TestREADMECounts(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	n, by := 0, map[string]int{}
	for _, r := range catalog.MustLoad().Rows {
		if r.Document == "terms" {
			n++
			by[r.Witness]++
		}
	}
	want := fmt.Sprintf("%d rows: %d static,\n%d reference-client, %d gated", n, by["static"], by["reference-client"], by["gated"])
	if !strings.Contains(string(b), want) {
		t.Errorf("README.md does not say %q", want)
	}
}

// TestClausesFollowReadings: the clauses quoted in failures say what the specs check now (#39: TE-3.5b once said
// "sig base64url" while standard base64 was accepted, TE-3.5c "parties.client is null" while absent was accepted,
// TE-4.1a allowed any power of ten).
func TestClausesFollowReadings(t *testing.T) {
	c := catalog.MustLoad()
	for id, want := range map[string][]string{
		"TE-3.5b": {"standard base64", "another key type blocks"},
		"TE-3.5c": {"null or absent"},
		"TE-4.1a": {"exactly as stated", "ISO 4217", "blocks with the quote"},
		"TE-3.3g": {"scope.offerings"},
		"TE-4.1b": {"\"none\"", "capability sentences are never flagged"},
		"TE-4.1c": {"\"none\"", "capability sentences are never flagged"},
	} {
		r, ok := c.Row(id)
		if !ok {
			t.Fatalf("%s missing", id)
		}
		for _, w := range want {
			if !strings.Contains(r.Clause+" "+r.Why, w) {
				t.Errorf("%s clause does not say %q: %s", id, w, r.Clause)
			}
		}
	}
}
