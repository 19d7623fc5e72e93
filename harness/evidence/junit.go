package evidence

import (
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/catalog"
)

// JUnit XML, one <testcase> per catalog row (named by the row id, classname its suite: the document and the agent's
// name), so CI dashboards list rows rather than Ginkgo specs. Verdicts map as follows: executed-pass passes;
// executed-fail is a <failure> (a requirement broken); blocked and not-tested are an <error> (the run is incomplete:
// not a pass, and not the target's failure; the type attribute carries the verdict); inapplicable, unwitnessable and
// skipped are <skipped> with the reason. Self-check rows (about the harness) have their own suite and never count
// against the target: one that could not run is <skipped>, a failed one an <error type="harness-defect">. An
// advisory row (a recommendation: SHOULD, SHOULD NOT, RECOMMENDED) carries the property
// advisory=true; when it did not pass and the run is not strict it is <skipped type="advisory"> with the finding as
// message and body (reported, not failing), under --strict a <failure> like any other. The properties of every suite carry the bundle's standing (claim or evidence), tier, runner,
// signer and catalog digest, so a dashboard shows a self-run as a claim.

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Timestamp  string          `xml:"timestamp,attr,omitempty"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name       string          `xml:"name,attr"`
	Classname  string          `xml:"classname,attr"`
	Assertions int             `xml:"assertions,attr"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Failure    *junitResult    `xml:"failure,omitempty"`
	Error      *junitResult    `xml:"error,omitempty"`
	Skipped    *junitResult    `xml:"skipped,omitempty"`
}

type junitResult struct {
	Type    string `xml:"type,attr,omitempty"`
	Message string `xml:"message,attr"`
	Body    string `xml:",chardata"`
}

// JUnitProperties are the bundle-level properties every suite of the JUnit report carries, for a bundle nobody
// verified (JUnitPropertiesWith without a report).
func JUnitProperties(b *Bundle) []junitProperty { return JUnitPropertiesWith(b, nil) }

// JUnitPropertiesWith are the bundle-level properties, the standing being Headline(b, rep); a bundle that does not
// verify carries extconf.verified=false.
func JUnitPropertiesWith(b *Bundle, rep *Report) []junitProperty {
	signer := "unsigned"
	if b.Signature != nil {
		signer = b.Signature.Alg + " " + b.Signature.Thumbprint
		if TestKeyThumbprints[b.Signature.Thumbprint] != "" {
			signer += " (TEST-ONLY key)"
		}
	}
	verified := "not checked"
	switch {
	case rep != nil && !rep.OK():
		verified = fmt.Sprintf("false: UNVERIFIED, %d problems", len(rep.Problems()))
	case Pinned(rep):
		verified = "true, signature checked with a pinned key"
	case rep != nil:
		verified = "true, integrity only (no pinned key)"
	}
	return append([]junitProperty{
		{"extconf.kind", b.Kind},
		{"extconf.standing", Headline(b, rep)},
		{"extconf.verified", verified},
		{"extconf.tier", b.Runner.Tier},
		{"extconf.tierBasis", b.TierBasis},
		{"extconf.runner", b.Runner.Name},
		{"extconf.signature", signer},
		{"extconf.catalog", b.Catalog.Digest},
		{"extconf.harness", fmt.Sprintf("%s %s %s:%s", b.Harness.Name, b.Harness.Version, b.Harness.Build.Kind, b.Harness.Build.ID)},
		{"extconf.target", b.Target.Kind},
		{"extconf.seed", fmt.Sprint(b.Seed)},
		{"extconf.witnessSha256", b.WitnessSHA256},
		{"extconf.status", b.Status},
		{"extconf.statusReason", b.StatusReason},
		{"extconf.strict", fmt.Sprint(b.Selection.Strict)},
		{"extconf.advisory.count", fmt.Sprint(b.Advisory.Count)},
	}, clientProperties(b)...)
}

// clientProperties name the client under test of a client certification: its rows are about it, not an agent.
func clientProperties(b *Bundle) []junitProperty {
	c := b.Target.Client
	if c == nil {
		return nil
	}
	return []junitProperty{{"extconf.subject", Subject(b)}, {"extconf.client.command", c.Command}, {"extconf.client.name", c.Name},
		{"extconf.client.version", c.Version}, {"extconf.client.actions", strings.Join(c.Actions, ",")}, {"extconf.client.scopeStatus", c.ScopeStatus}}
}

// SelfCheckSuite names the JUnit suite (and report section) of the harness's own self-check rows.
const SelfCheckSuite = "harness self-check"

// JUnit writes the per-row JUnit XML report of a bundle nobody verified (JUnitWith without a report).
func JUnit(w io.Writer, b *Bundle) error { return JUnitWith(w, b, nil) }

// JUnitWith writes the per-row JUnit XML report of a bundle; rep is its verification (nil: not verified). A bundle
// that does not verify is marked UNVERIFIED at the top (the leading comment and the testsuites name) and in every
// suite's properties, and its problems are listed in a failing "bundle verification" suite, so a dashboard never
// shows it as a clean pass.
func JUnitWith(w io.Writer, b *Bundle, rep *Report) error {
	cat := catalog.MustLoad()
	props := JUnitPropertiesWith(b, rep)
	unverified := rep != nil && !rep.OK()
	agent := AgentName(b)
	out := junitSuites{Name: strings.Join(nonEmpty("extconf", b.Kind, agent), " ") + ": " + StatusLine(b)}
	if unverified {
		out.Name = "UNVERIFIED extconf " + b.Kind + " (" + b.Status + "; the bundle does not verify)"
		vs := junitSuite{Name: "bundle verification", Timestamp: b.Started, Properties: props}
		for _, p := range rep.Problems() {
			vs.Cases = append(vs.Cases, junitCase{Name: p, Classname: "bundle verification",
				Failure: &junitResult{Type: "unverified", Message: "UNVERIFIED: " + p}})
			vs.Tests++
			vs.Failures++
			out.Tests++
			out.Failures++
		}
		out.Suites = append(out.Suites, vs)
	}
	index := map[string]int{}
	// Rows about the target make one suite per document; the harness's self-check rows one suite of their own, so
	// a dashboard never reads a self-check as the target's result.
	for _, r := range append(harness.TargetRows(b.Rows), harness.SelfCheckRows(b.Rows)...) {
		name := r.Document
		switch {
		case r.SelfCheck:
			name = SelfCheckSuite // about the harness whatever the target: never named after it
		case b.Target.Kind == TargetKindClient:
			name = r.Document + " (client under test)" // never read as an agent's result
			if agent != "" {
				name = r.Document + " (client under test: " + agent + ")"
			}
		default:
			if a := DocumentAgentName(b, r.Document); a != "" {
				name = r.Document + " (" + a + ")"
			}
		}
		i, ok := index[name]
		if !ok {
			i = len(out.Suites)
			index[name] = i
			sp := props
			if r.SelfCheck {
				sp = append(slices.Clip(props), junitProperty{"extconf.selfCheck.status", b.SelfCheck.Status})
			}
			out.Suites = append(out.Suites, junitSuite{Name: name, Timestamp: b.Started, Properties: sp})
		}
		s := &out.Suites[i]
		row, known := cat.Row(r.ID)
		tc := junitCase{Name: r.ID, Classname: name, Assertions: r.Assertions,
			Properties: []junitProperty{{"verdict", r.Verdict}}}
		if known {
			tc.Properties = append(tc.Properties, junitProperty{"level", row.Level}, junitProperty{"clause", row.Clause})
		}
		if fals := b.Falsifiability; fals != nil && len(fals.Rows[r.ID]) > 0 {
			tc.Properties = append(tc.Properties, junitProperty{"killedBy", strings.Join(fals.Rows[r.ID], ",")})
		}
		if r.Advisory {
			tc.Properties = append(tc.Properties, junitProperty{"advisory", "true"})
		}
		body := failureBody(r, row, known)
		advisoryOnly := r.Advisory && !b.Selection.Strict
		switch r.Verdict {
		case harness.ExecutedPass:
		case harness.ExecutedFail, harness.Blocked, harness.NotTested:
			if advisoryOnly {
				msg := "advisory (a recommendation; not failing the run without --strict): " + r.Verdict
				if known {
					msg += fmt.Sprintf(": %s %q", row.Level, row.Clause)
				}
				tc.Skipped = &junitResult{Type: "advisory", Message: msg, Body: body}
				s.Skipped++
				out.Skipped++
				break
			}
			msg := r.Verdict
			if known {
				msg = fmt.Sprintf("%s: %s %q", r.Verdict, row.Level, row.Clause)
			}
			switch {
			case r.SelfCheck && r.Verdict == harness.ExecutedFail:
				// A harness defect: an error of the harness, never a failure of the target.
				tc.Error = &junitResult{Type: "harness-defect", Message: "harness defect: " + msg, Body: body}
				s.Errors++
				out.Errors++
			case r.SelfCheck:
				// A self-check that could not run says nothing of the target: reported, never counted against it.
				tc.Skipped = &junitResult{Type: r.Verdict, Message: "self-check " + r.Verdict + " (not the target's result): " + firstLine(r.Detail), Body: body}
				s.Skipped++
				out.Skipped++
			case r.Verdict == harness.ExecutedFail:
				tc.Failure = &junitResult{Type: r.Verdict, Message: msg, Body: body}
				s.Failures++
				out.Failures++
			default:
				// Blocked or not tested: the run is incomplete, no requirement broken; an error, never a failure.
				tc.Error = &junitResult{Type: r.Verdict, Message: msg + ": " + firstLine(r.Detail), Body: body}
				s.Errors++
				out.Errors++
			}
		default:
			tc.Skipped = &junitResult{Type: r.Verdict, Message: r.Verdict + ": " + firstLine(r.Detail)}
			s.Skipped++
			out.Skipped++
		}
		s.Tests++
		out.Tests++
		s.Cases = append(s.Cases, tc)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	fmt.Fprintf(w, "<!-- %s -->\n", strings.ReplaceAll(Headline(b, rep), "--", "- -"))
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func failureBody(r harness.RowVerdict, row catalog.Row, known bool) string {
	var b strings.Builder
	if known {
		fmt.Fprintf(&b, "[%s] %s %s: %q\n  spec text: %q\n", r.ID, row.Level, row.Section, row.Clause, row.Source)
	}
	if r.Detail != "" {
		b.WriteString(r.Detail)
		b.WriteString("\n")
	}
	for _, ex := range r.Exchanges {
		fmt.Fprintf(&b, "  exchange %s\n", ex)
	}
	return b.String()
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}
