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

// keyword matches the normative words in capitals: the requirements (MUST NOT and SHALL NOT are occurrences of
// MUST and SHALL) and the recommendations (SHOULD NOT is an occurrence of SHOULD, NOT RECOMMENDED of RECOMMENDED).
var keyword = regexp.MustCompile(`\b(MUST|REQUIRED|SHALL|SHOULD|RECOMMENDED)\b`)

// numbered matches a numbered item opening a line: "3. …" (indented or not) or an on-request rule id "OR-5.10 …".
var numbered = regexp.MustCompile(`^\s*([0-9]{1,2}\.|[A-Z]{2}-[0-9]+\.[0-9]+[a-z]?)\s+\S`)

// marker is an item marker alone.
var marker = regexp.MustCompile(`^[0-9]{1,2}\.$`)

// NumberedItems returns the numbered items of a document text: each line opening with "N. " or a rule id, that is
// not a section heading (a line ending in "#", or a short line with no sentence punctuation at its end). Each is
// returned folded. Such items are the documents' rules lists, procedures and open-question lists: each must lie
// inside the spans rows and exclusions quote, so a declarative rule with no capitalised keyword is not missed.
func NumberedItems(raw string) []string {
	var out []string
	for _, line := range strings.Split(raw, "\n") {
		if !numbered.MatchString(line) {
			continue
		}
		l := Fold(line)
		if strings.HasSuffix(l, "#") {
			continue
		}
		if last := l[len(l)-1]; !strings.ContainsRune(".;:?)", rune(last)) && len(l) < 100 {
			continue // a heading: "2. Terms", "1. Conformance language and terminology"
		}
		out = append(out, l)
	}
	return out
}

// Uncovered is a normative keyword occurrence that no row quotes.
type Uncovered struct {
	Document string
	Offset   int    // byte offset in the folded text
	Context  string // the surrounding text, for the report
}

// UncoveredRule is a numbered item (a rules-list entry, a procedure step) with text no row or exclusion quotes.
type UncoveredRule struct {
	Document string
	Offset   int    // byte offset of the item in the folded text
	Item     string // the item's opening, for the report
	Gaps     []string
}

// Unfound is a row (or exclusion) whose quoted text does not occur in its document.
type Unfound struct {
	Document, ID, Text string
}

// Coverage is the result of checking the catalog against the document texts.
type Coverage struct {
	Keywords  map[string]int // occurrences per document
	Uncovered []Uncovered
	Rules     map[string]int // numbered items per document
	// UncoveredRules are numbered items with text outside every quoted span (beyond the item's marker and
	// punctuation).
	UncoveredRules []UncoveredRule
	Unfound        []Unfound
	Missing        []string // documents whose text file was not found
	Digests        []string // documents whose text differs from the digest the catalog recorded
}

// OK reports whether every keyword is covered and every source found.
func (c Coverage) OK() bool {
	return len(c.Uncovered) == 0 && len(c.UncoveredRules) == 0 && len(c.Unfound) == 0 && len(c.Missing) == 0
}

// CheckSpecs reads the five document texts from dir and checks coverage both ways: every occurrence of a
// normative keyword lies inside a span that some row quotes as its source (or that an exclusion names), and every
// quoted source occurs in its document. Spans, not sentence splitting, so no heuristic decides what a sentence is.
func (c *Catalog) CheckSpecs(dir string) (Coverage, error) {
	cov := Coverage{Keywords: map[string]int{}, Rules: map[string]int{}}
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
		c.checkDocument(d, Fold(string(raw)), NumberedItems(string(raw)), &cov)
	}
	return cov, nil
}

func (c *Catalog) checkDocument(d Document, text string, items []string, cov *Coverage) {
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
	// Numbered items: every byte of the item after its marker lies inside some quoted span, except whitespace and
	// punctuation between spans.
	covered := make([]bool, len(text))
	for _, s := range spans {
		for i := s.lo; i < s.hi; i++ {
			covered[i] = true
		}
	}
	from := 0
	for _, item := range items {
		i := strings.Index(text[from:], item)
		if i < 0 {
			continue // cannot happen: the item is a folded line of the same text
		}
		lo := from + i
		from = lo + len(item)
		cov.Rules[d.ID]++
		start := lo + numbered.FindStringSubmatchIndex(item)[3]
		var gaps []string
		for j := start; j < lo+len(item); {
			if covered[j] {
				j++
				continue
			}
			k := j
			for k < lo+len(item) && !covered[k] {
				k++
			}
			gap := strings.TrimSpace(text[j:k])
			if marker.MatchString(gap) {
				gap = "" // the marker of the next item on the same line ("… 3.")
			}
			if strings.IndexFunc(gap, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
				gaps = append(gaps, gap)
			}
			j = k
		}
		if len(gaps) > 0 {
			head := item
			if len(head) > 80 {
				head = head[:80] + "…"
			}
			cov.UncoveredRules = append(cov.UncoveredRules, UncoveredRule{Document: d.ID, Offset: lo, Item: head, Gaps: gaps})
		}
	}
}

// TextDigest is the digest the catalog records for a document text: "sha256:" + hex over its bytes.
func TextDigest(raw []byte) string {
	sum := sha256.Sum256(raw)
	return "sha256:" + hex.EncodeToString(sum[:])
}
