package catalog

import (
	"os"
	"strings"
	"testing"
)

func validRow(id string) Row {
	return Row{ID: id, Document: "interview", Section: "6 Refusals", Level: "MUST", Subject: "agent",
		Source: "s", Clause: "c", Witness: WitnessWire, Aliases: []string{}}
}

func TestCheckRejects(t *testing.T) {
	gated := validRow("IV-1.2")
	gated.Witness = WitnessGated
	unw := validRow("IV-1.3")
	unw.Witness = WitnessUnwitnessable
	wrongPrefix := validRow("TE-1.1")
	cases := map[string]struct {
		rows []Row
		want string
	}{
		"duplicate id":          {[]Row{validRow("IV-1.1"), validRow("IV-1.1")}, "duplicate id"},
		"slash in id":           {[]Row{validRow("IV-1/1")}, "not label-safe"},
		"comma in id":           {[]Row{validRow("IV-1,1")}, "not label-safe"},
		"space in id":           {[]Row{validRow("IV 1.1")}, "not label-safe"},
		"gated without why":     {[]Row{gated}, "witness gated needs a why"},
		"unwitnessable no why":  {[]Row{unw}, "witness unwitnessable needs a why"},
		"prefix of another doc": {[]Row{wrongPrefix}, "does not start with IV-"},
		"alias equal to an id":  {[]Row{validRow("IV-1.1"), func() Row { r := validRow("IV-1.4"); r.Aliases = []string{"IV-1.1"}; return r }()}, "collides with a row id"},
		"alias repeated":        {[]Row{func() Row { r := validRow("IV-1.5"); r.Aliases = []string{"x", "x"}; return r }()}, "repeated"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			errs := Check(tc.rows)
			if len(errs) == 0 {
				t.Fatalf("Check accepted %s", name)
			}
			joined := ""
			for _, e := range errs {
				joined += e.Error() + "\n"
			}
			if !strings.Contains(joined, tc.want) {
				t.Fatalf("errors %q do not name %q", joined, tc.want)
			}
			if _, err := New([]File{{Document: "interview", Rows: tc.rows}}); err == nil {
				t.Fatal("New accepted a catalog Check rejects")
			}
		})
	}
}

func TestCheckAcceptsValid(t *testing.T) {
	gated := validRow("IV-1.2")
	gated.Witness, gated.Why = WitnessGated, "needs a second tenant's credential"
	if errs := Check([]Row{validRow("IV-1.1"), gated}); len(errs) != 0 {
		t.Fatalf("valid rows rejected: %v", errs)
	}
}

func TestEmbeddedCatalogLoads(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Rows) == 0 || !strings.HasPrefix(c.Digest(), "sha256:") {
		t.Fatalf("catalog empty or undigested: %d rows, %q", len(c.Rows), c.Digest())
	}
}

func TestCoverageBothWays(t *testing.T) {
	dir := t.TempDir()
	text := "Intro.\nThe agent MUST answer.   The client\nSHALL wait. Also it MUST NOT lie. Keywords \"MUST\" are BCP 14.\n"
	if err := os.WriteFile(dir+"/a2a-interview-v1.txt", []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	r1, r2, r3 := validRow("IV-1.1"), validRow("IV-1.2"), validRow("IV-1.3")
	r1.Source = "The agent MUST answer."
	r2.Source = "The client SHALL wait."
	r3.Source = "This sentence is not in the document MUST."
	c, err := New([]File{{Document: "interview", Rows: []Row{r1, r2, r3}, Excluded: []Excluded{{Text: `Keywords "MUST" are BCP 14.`, Why: "boilerplate"}}}})
	if err != nil {
		t.Fatal(err)
	}
	cov, err := c.CheckSpecs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if cov.Keywords["interview"] != 4 {
		t.Fatalf("keywords = %d, want 4", cov.Keywords["interview"])
	}
	if len(cov.Uncovered) != 1 || !strings.Contains(cov.Uncovered[0].Context, "MUST NOT lie") {
		t.Fatalf("uncovered = %+v, want the MUST NOT sentence only", cov.Uncovered)
	}
	if len(cov.Unfound) != 1 || cov.Unfound[0].ID != "IV-1.3" {
		t.Fatalf("unfound = %+v, want IV-1.3", cov.Unfound)
	}
	if cov.OK() {
		t.Fatal("coverage OK despite gaps")
	}
}

func TestCoverageNamesChangedText(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/a2a-interview-v1.txt", []byte("The agent MUST answer.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := validRow("IV-1.1")
	r.Source = "The agent MUST answer."
	c, err := New([]File{{Document: "interview", TextSHA256: TextDigest([]byte("an older text")), Rows: []Row{r}}})
	if err != nil {
		t.Fatal(err)
	}
	cov, err := c.CheckSpecs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if cov.OK() || len(cov.Digests) != 1 || !strings.Contains(cov.Digests[0], "interview") {
		t.Fatalf("a changed document text went unnoticed: %+v", cov)
	}
}

func TestSelfCheckRowsAreTheReferenceClientRows(t *testing.T) {
	cat := MustLoad()
	n := 0
	for _, r := range cat.Rows {
		if r.SelfCheck() != (r.Witness == WitnessReferenceClient) {
			t.Errorf("%s: SelfCheck %v with witness %s", r.ID, r.SelfCheck(), r.Witness)
		}
		if r.SelfCheck() {
			n++
		}
	}
	if n == 0 {
		t.Error("no self-check rows")
	}
}
