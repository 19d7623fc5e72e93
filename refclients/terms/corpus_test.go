package terms

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

type labelled struct {
	label, want, text string
	line              int
}

func readCorpus(t *testing.T, name string, cols int) []labelled {
	t.Helper()
	f, err := os.Open("testdata/claims/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []labelled
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		if strings.HasPrefix(l, "#") || strings.TrimSpace(l) == "" {
			continue
		}
		p := strings.SplitN(l, "\t", cols)
		if len(p) != cols {
			t.Fatalf("%s:%d: want %d tab-separated columns", name, n, cols)
		}
		e := labelled{label: p[0], text: p[cols-1], line: n}
		if cols == 3 {
			e.want = p[1]
		}
		out = append(out, e)
	}
	return out
}

// TestPriceCorpus: terms §4 binds where "prose or skill descriptions state a price". No sentence labelled none may
// yield a claim (sure or unsure); recall on the price class is reported, and a stated reading must be found.
func TestPriceCorpus(t *testing.T) {
	corpus := readCorpus(t, "price.tsv", 3)
	classes := map[string]int{}
	found, sure := 0, 0
	for _, c := range corpus {
		classes[c.label]++
		claims := SentencePriceClaims(ProseSpan{"description", c.text})
		switch c.label {
		case "none":
			if len(claims) > 0 {
				t.Errorf("price.tsv:%d %q states no price, read as %+v", c.line, c.text, claims[0])
			}
		case "price":
			if len(claims) == 0 {
				t.Logf("missed (price.tsv:%d): %q", c.line, c.text)
				continue
			}
			found++
			if !claims[0].Unsure {
				sure++
			}
			if c.want != "" && !hasReading(claims, c.want) {
				t.Errorf("price.tsv:%d %q: no reading %s in %+v", c.line, c.text, c.want, claims)
			}
		default:
			t.Fatalf("price.tsv:%d: unknown label %q", c.line, c.label)
		}
	}
	if classes["price"] < 40 || classes["none"] < 40 {
		t.Errorf("corpus too small: %v (want ≥ 40 per class)", classes)
	}
	t.Logf("TE-4.1a reading: precision 100%% on %d sentences stating no price; recall %d/%d (%d sure, %d unsure)",
		classes["none"], found, classes["price"], sure, found-sure)
}

// hasReading: "GBP 250" is a claim in GBP whose reading is 250 minor units.
func hasReading(claims []PriceClaim, want string) bool {
	cur, n, _ := strings.Cut(want, " ")
	minor, _ := strconv.ParseInt(n, 10, 64)
	exp, _ := ISOExponent(cur)
	for _, c := range claims {
		if !containsStr(c.Currencies, cur) {
			continue
		}
		for _, r := range c.Readings {
			v := r.N
			for i := r.Scale; i < exp; i++ {
				v *= 10
			}
			if r.Scale <= exp && v == minor {
				return true
			}
		}
	}
	return false
}

func TestLexiconCorpora(t *testing.T) {
	for _, tc := range []struct {
		file string
		lex  *Lexicon
	}{{"term.tsv", TermLexicon}, {"data-use.tsv", DataUseLexicon}} {
		corpus := readCorpus(t, tc.file, 2)
		classes := map[string]int{}
		found := 0
		for _, c := range corpus {
			classes[c.label]++
			got := tc.lex.Match(c.text)
			switch c.label {
			case "none":
				if got {
					t.Errorf("%s:%d %q states no %s, flagged", tc.file, c.line, c.text, tc.lex.Kind)
				}
			case tc.lex.Kind:
				if got {
					found++
				} else {
					t.Logf("missed (%s:%d): %q", tc.file, c.line, c.text)
				}
			default:
				t.Fatalf("%s:%d: unknown label %q", tc.file, c.line, c.label)
			}
		}
		if classes[tc.lex.Kind]+classes["none"] < 40 || classes[tc.lex.Kind] == 0 || classes["none"] == 0 {
			t.Errorf("%s too small: %v", tc.file, classes)
		}
		t.Logf("TE-4.1%s reading: precision 100%% on %d sentences stating no %s claim; recall %d/%d",
			map[string]string{"term": "b", "data-use": "c"}[tc.lex.Kind], classes["none"], tc.lex.Kind, found, classes[tc.lex.Kind])
	}
}
