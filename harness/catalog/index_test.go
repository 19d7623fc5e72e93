package catalog

import (
	"slices"
	"testing"
)

// The embedded index belongs to the embedded catalog: same digest, every row once, in catalog order, every list
// present. (The full drift check, which re-scans the source, is cmd/rowindex's test.)
func TestIndexMatchesCatalog(t *testing.T) {
	c := MustLoad()
	ix, err := LoadIndex()
	if err != nil {
		t.Fatal(err)
	}
	if ix.Catalog != c.Digest() {
		t.Errorf("index.json was generated from catalog %s, the catalog is %s; run: %s", ix.Catalog, c.Digest(), RegenerateCommand)
	}
	var got, want []string
	for _, r := range ix.Rows {
		got = append(got, r.ID)
		if r.Specs == nil || r.Toggles == nil || r.Latitudes == nil {
			t.Errorf("index row %s: a list is null", r.ID)
		}
	}
	for _, r := range c.Rows {
		want = append(want, r.ID)
	}
	if !slices.Equal(got, want) {
		t.Errorf("index.json rows differ from the catalog's; run: %s", RegenerateCommand)
	}
}
