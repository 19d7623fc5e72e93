package onrequest_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	vonrequest "github.com/extconf/extconf/refclients/onrequest"
)

// The readings that judge free text or a written value are measured on labelled corpora (testdata/corpus): each
// line is "label<TAB>field…", label "ok" for a reply the document accepts and "violation" for one it forbids
// (value corpora: "contains", "absent", "ambiguous"). A reading must never act against an acceptable line
// (precision 100 %); its recall on violations is logged.

type corpusLine struct {
	label  string
	fields []string
	line   int
}

func loadCorpus(t *testing.T, name string, nfields int) []corpusLine {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "corpus", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []corpusLine
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		l := sc.Text()
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		parts := strings.Split(l, "\t")
		if len(parts) != nfields+1 {
			t.Fatalf("%s:%d: want %d tab-separated fields after the label, got %d", name, n, nfields, len(parts)-1)
		}
		out = append(out, corpusLine{label: parts[0], fields: parts[1:], line: n})
	}
	return out
}

// judgeCorpus applies acts (the reading acts against the reply: the row would fail) to every line: never on "ok",
// recall logged on "violation"; at least 40 lines with both classes.
func judgeCorpus(t *testing.T, name string, lines []corpusLine, acts func(corpusLine) (bool, string)) {
	t.Helper()
	var ok, bad, caught, wrong int
	for _, l := range lines {
		hit, why := acts(l)
		switch l.label {
		case "ok":
			ok++
			if hit {
				wrong++
				t.Errorf("%s:%d: acts against an acceptable reply (%s): %q", name, l.line, why, l.fields)
			}
		case "violation":
			bad++
			if hit {
				caught++
			}
		default:
			t.Fatalf("%s:%d: unknown label %q", name, l.line, l.label)
		}
	}
	if ok+bad < 40 || ok == 0 || bad == 0 {
		t.Errorf("%s: %d acceptable and %d violating lines; want at least 40 with both classes", name, ok, bad)
	}
	t.Logf("%s: acts against %d of %d acceptable (must be 0); recall %d/%d violations (%.0f%%)", name, wrong, ok, caught, bad, 100*float64(caught)/float64(max(bad, 1)))
}

var ph = vonrequest.DefaultPhrases

// OR-5.10 (negative): a route to staff offered where nobody can be reached, read with its negation.
func TestCorpusRoute(t *testing.T) {
	judgeCorpus(t, "route.tsv", loadCorpus(t, "route.tsv", 1), func(l corpusLine) (bool, string) {
		m := ph.OffersRoute(l.fields[0])
		return m != "", m
	})
}

// OR-5.10 (positive): the reply says nobody can be reached; the row fails when the reading finds no such words.
func TestCorpusNobodyReachable(t *testing.T) {
	judgeCorpus(t, "nobody.tsv", loadCorpus(t, "nobody.tsv", 1), func(l corpusLine) (bool, string) {
		return vonrequest.MatchAny(ph.NobodyReachable, l.fields[0]) == "", "no nobody-reachable wording found"
	})
}

// OR-5.3d: a referral answering as though the information did not exist.
func TestCorpusDenial(t *testing.T) {
	judgeCorpus(t, "denial.tsv", loadCorpus(t, "denial.tsv", 1), func(l corpusLine) (bool, string) {
		m := ph.Denies(l.fields[0])
		return m != "", m
	})
}

// OR-3.6: an in-conversation action's reply saying someone completes it later.
func TestCorpusLater(t *testing.T) {
	judgeCorpus(t, "later.tsv", loadCorpus(t, "later.tsv", 1), func(l corpusLine) (bool, string) {
		m := vonrequest.MatchAny(ph.Later, l.fields[0])
		return m != "", m
	})
}

// OR-5.8a, OR-5.7g: a deferred action reported done.
func TestCorpusDone(t *testing.T) {
	judgeCorpus(t, "done.tsv", loadCorpus(t, "done.tsv", 1), func(l corpusLine) (bool, string) {
		m := ph.SaysDone(l.fields[0])
		return m != "", m
	})
}

// OR-5.3b, OR-5.4b: the reply says the operator gives this to the person who asks; the row fails without it.
func TestCorpusOperatorGives(t *testing.T) {
	judgeCorpus(t, "gives.tsv", loadCorpus(t, "gives.tsv", 1), func(l corpusLine) (bool, string) {
		return vonrequest.MatchAny(ph.OperatorGives, l.fields[0]) == "", "no operator-gives wording found"
	})
}

// OR-3.8b: a personEntry path naming a circumstance of the person; the second field is the operator's own words
// (provider, card name and description).
func TestCorpusPath(t *testing.T) {
	judgeCorpus(t, "path.tsv", loadCorpus(t, "path.tsv", 2), func(l corpusLine) (bool, string) {
		found := vonrequest.PathCircumstancesFor(l.fields[0], nil, l.fields[1])
		return len(found) > 0, strings.Join(found, ",")
	})
}

// Values (OR-3.9, OR-5.3a, OR-5.4a as leaks; OR-6.2 as what the text must state) are found as currency and amount
// together. Two readings act on this corpus: a leak reading acts on a hit (never on "absent" or "ambiguous"), the
// stating reading acts on a miss that is not ambiguous (never on "contains"); "ambiguous" must be reported
// ambiguous, so the row blocks with the quote.
func TestCorpusValues(t *testing.T) {
	lines := loadCorpus(t, "values.tsv", 2)
	var leak, states []corpusLine
	for _, l := range lines {
		hit, amb := vonrequest.MatchValue(l.fields[1], l.fields[0])
		switch l.label {
		case "contains":
			leak = append(leak, corpusLine{"violation", l.fields, l.line})
			states = append(states, corpusLine{"ok", l.fields, l.line})
		case "absent":
			leak = append(leak, corpusLine{"ok", l.fields, l.line})
			states = append(states, corpusLine{"violation", l.fields, l.line})
		case "ambiguous":
			if hit != "" || amb == "" {
				t.Errorf("values.tsv:%d: want ambiguous, got hit %q ambiguous %q", l.line, hit, amb)
			}
		default:
			t.Fatalf("values.tsv:%d: unknown label %q", l.line, l.label)
		}
	}
	judgeCorpus(t, "values.tsv (leak reading)", leak, func(l corpusLine) (bool, string) {
		hit, _ := vonrequest.MatchValue(l.fields[1], l.fields[0])
		return hit != "", hit
	})
	judgeCorpus(t, "values.tsv (stating reading)", states, func(l corpusLine) (bool, string) {
		hit, amb := vonrequest.MatchValue(l.fields[1], l.fields[0])
		return hit == "" && amb == "", "value not found"
	})
}

// OR-5.8a: a deferred action's task ending COMPLETED must say in words that it is pending; the row fails when the
// reading finds no such words.
func TestCorpusPending(t *testing.T) {
	judgeCorpus(t, "pending.tsv", loadCorpus(t, "pending.tsv", 1), func(l corpusLine) (bool, string) {
		return ph.SaysPending(l.fields[0]) == "", "no pending wording found"
	})
}
