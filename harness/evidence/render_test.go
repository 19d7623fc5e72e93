package evidence_test

import (
	"bytes"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/harness/evidence"
)

func junitProps(t *testing.T, raw []byte) map[string]string {
	t.Helper()
	var doc struct {
		Suites []struct {
			Props []struct {
				Name  string `xml:"name,attr"`
				Value string `xml:"value,attr"`
			} `xml:"properties>property"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("JUnit is not XML: %v", err)
	}
	if len(doc.Suites) == 0 {
		t.Fatal("JUnit has no testsuite")
	}
	out := map[string]string{}
	for _, p := range doc.Suites[0].Props {
		out[p.Name] = p.Value
	}
	return out
}

func TestJUnitOneCasePerRow(t *testing.T) {
	b, _ := newBundle(t, thirdParty, testKey(t))
	var buf bytes.Buffer
	if err := evidence.JUnit(&buf, b); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Errors   int `xml:"errors,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name      string `xml:"name,attr"`
				Classname string `xml:"classname,attr"`
				Failure   *struct {
					Type    string `xml:"type,attr"`
					Message string `xml:"message,attr"`
					Body    string `xml:",chardata"`
				} `xml:"failure"`
				Error *struct {
					Type string `xml:"type,attr"`
				} `xml:"error"`
				Skipped *struct {
					Message string `xml:"message,attr"`
				} `xml:"skipped"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var fail, pass, skipped, errs int
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			if c.Classname != s.Name {
				t.Errorf("%s: classname %q in suite %q", c.Name, c.Classname, s.Name)
			}
			seen[c.Name] = true
			switch {
			case c.Failure != nil:
				fail++
				if c.Name == "TE-3.2a" && (c.Failure.Type != "executed-fail" || !strings.Contains(c.Failure.Body, "expected: the document is served") || !strings.Contains(c.Failure.Body, "exchange sha256:")) {
					t.Errorf("TE-3.2a failure lacks verdict, expected or exchange: %+v", c.Failure)
				}
			case c.Error != nil:
				errs++
				if c.Error.Type != harness.Blocked && c.Error.Type != harness.NotTested {
					t.Errorf("%s: error of type %q", c.Name, c.Error.Type)
				}
			case c.Skipped != nil:
				skipped++
			default:
				pass++
				if c.Name != "TE-3.1" {
					t.Errorf("%s reads as passed", c.Name)
				}
			}
		}
	}
	if len(seen) != len(b.Rows) || doc.Tests != len(b.Rows) {
		t.Fatalf("%d distinct test cases, tests=%d, for %d rows", len(seen), doc.Tests, len(b.Rows))
	}
	// Advisory rows that did not pass are <skipped type="advisory"> (the run is not strict), not failures; blocked
	// and not-tested rows about the target are errors (incomplete), never failures; self-checks never count.
	all := harness.Totals(harness.RequiredRows(b.Rows))
	notTested := all["not-tested"] + all["blocked"]
	if pass != 1 || fail != 1 || errs != notTested || doc.Failures != fail || doc.Errors != errs || skipped != len(b.Rows)-1-fail-errs {
		t.Fatalf("pass %d fail %d (failures attr %d) errors %d (attr %d) skipped %d; totals %v", pass, fail, doc.Failures, errs, doc.Errors, skipped, b.Totals)
	}
	props := junitProps(t, buf.Bytes())
	if props["extconf.kind"] != "evidence" || props["extconf.catalog"] != b.Catalog.Digest || !strings.Contains(props["extconf.signature"], "TEST-ONLY") {
		t.Fatalf("properties %v", props)
	}
}

func TestHTMLReportContent(t *testing.T) {
	k := testKey(t)
	path := writeBundle(t, thirdParty, k)
	pub := k.Public()
	rep := verify(t, path, &pub) // pinned: only then does the report read as evidence
	b := rep.Bundle
	transcript, _ := os.ReadFile(filepath.Join(filepath.Dir(path), evidence.TranscriptFile))
	var buf bytes.Buffer
	if err := evidence.HTML(&buf, b, evidence.HTMLOptions{Transcript: transcript, Verification: rep}); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	for _, want := range []string{
		`class="banner evidence"`, "EVIDENCE: FAILED third-party run by &#34;Independent Test Lab&#34;",
		"TEST-ONLY key", // signed with the committed key: the page says so
		`<tr data-document="terms"><td`, `data-verdict="executed-pass">1</td>`, `data-verdict="executed-fail">1</td>`,
		`id="row-TE-3.2a"`, "expected: the document is served", // the failing row with its detail
		"/.well-known/missing.json → 404 (a document that is not there)", // the exchange it cites, from the transcript
	} {
		if !strings.Contains(html, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	row, _ := catalog.MustLoad().Row("TE-3.2a")
	if !strings.Contains(html, template(row.Clause)) {
		t.Errorf("HTML lacks TE-3.2a's quoted clause %q", row.Clause)
	}
	// Single file, nothing fetched: no external reference of any kind.
	for _, bad := range []string{"<script", "<link", "<img", "<iframe", "src=", "@import", "url("} {
		if strings.Contains(strings.ToLower(html), bad) {
			t.Errorf("HTML contains %q: the report must load nothing", bad)
		}
	}
}

// template escapes like html/template does for text, enough for clauses.
func template(s string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;")
	return r.Replace(s)
}
