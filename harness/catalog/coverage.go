package catalog

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode"
)

// Fold folds every run of whitespace to one space and trims: the form in which rows quote their sources.
func Fold(s string) string { return strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ") }

// keyword matches the normative words in capitals; MUST NOT and SHALL NOT are occurrences of MUST and SHALL.
var keyword = regexp.MustCompile(`\b(MUST|REQUIRED|SHALL)\b`)

// Uncovered is a normative keyword occurrence that no row quotes.
type Uncovered struct {
	Document string
	Offset   int    // byte offset in the folded text
	Context  string // the surrounding text, for the report
}

// Unfound is a row (or exclusion) whose quoted text does not occur in its document.
type Unfound struct {
	Document, ID, Text string
}

// Coverage is the result of checking the catalog against the document texts.
type Coverage struct {
	Keywords  map[string]int // occurrences per document
	Uncovered []Uncovered
	Unfound   []Unfound
	Missing   []string // documents whose text file was not found
	Digests   []string // documents whose text differs from the digest the catalog recorded
}

// OK reports whether every keyword is covered and every source found.
func (c Coverage) OK() bool {
	return len(c.Uncovered) == 0 && len(c.Unfound) == 0 && len(c.Missing) == 0
}

// CheckSpecs reads the five document texts from dir and checks coverage both ways: every occurrence of a
// normative keyword lies inside a span that some row quotes as its source (or that an exclusion names), and every
// quoted source occurs in its document. Spans, not sentence splitting, so no heuristic decides what a sentence is.
func (c *Catalog) CheckSpecs(dir string) (Coverage, error) {
	cov := Coverage{Keywords: map[string]int{}}
	for _, d := range Documents {
		raw, err := os.ReadFile(filepath.Join(dir, d.File))
		if err != nil {
			if os.IsNotExist(err) {
				cov.Missing = append(cov.Missing, d.File)
				continue
			}
			return cov, err
		}
		for _, f := range c.Files {
			if f.Document == d.ID && f.TextSHA256 != "" && f.TextSHA256 != TextDigest(raw) {
				cov.Digests = append(cov.Digests, fmt.Sprintf("%s: catalog quotes %s, %s is %s", d.ID, f.TextSHA256, d.File, TextDigest(raw)))
			}
		}
		c.checkDocument(d, Fold(string(raw)), &cov)
	}
	return cov, nil
}

func (c *Catalog) checkDocument(d Document, text string, cov *Coverage) {
	type span struct{ lo, hi int }
	var spans []span
	mark := func(id, quote string) {
		q := Fold(quote)
		if q == "" {
			return
		}
		found := false
		for from := 0; ; {
			i := strings.Index(text[from:], q)
			if i < 0 {
				break
			}
			found = true
			spans = append(spans, span{from + i, from + i + len(q)})
			from += i + 1
		}
		if !found {
			cov.Unfound = append(cov.Unfound, Unfound{Document: d.ID, ID: id, Text: quote})
		}
	}
	for _, r := range c.ByDocument(d.ID) {
		mark(r.ID, r.Source)
	}
	for _, f := range c.Files {
		if f.Document != d.ID {
			continue
		}
		for i, e := range f.Excluded {
			mark(fmt.Sprintf("excluded[%d]", i), e.Text)
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].lo < spans[j].lo })
	for _, m := range keyword.FindAllStringIndex(text, -1) {
		cov.Keywords[d.ID]++
		covered := false
		for _, s := range spans {
			if s.lo > m[0] {
				break
			}
			if m[1] <= s.hi {
				covered = true
				break
			}
		}
		if !covered {
			lo, hi := max(0, m[0]-160), min(len(text), m[1]+160)
			cov.Uncovered = append(cov.Uncovered, Uncovered{Document: d.ID, Offset: m[0], Context: text[lo:hi]})
		}
	}
}

// TextDigest is the digest the catalog records for a document text: "sha256:" + hex over its bytes.
func TextDigest(raw []byte) string {
	sum := sha256.Sum256(raw)
	return "sha256:" + hex.EncodeToString(sum[:])
}
