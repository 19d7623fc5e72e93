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
