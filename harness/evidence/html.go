package evidence

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/catalog"
)

// HTMLOptions add what the bundle alone does not hold.
type HTMLOptions struct {
	// Transcript is the bundle's transcript: with it, every cited exchange is shown (request, status, bodies).
	Transcript []byte
	// Verification is the outcome of VerifyBundle; with it, the report says which checks held.
	Verification *Report
}

// HTML writes a single-file report: inline CSS, no scripts, no network resources. It shows the claim/evidence
// banner first, verdict counts per document, every row that did not pass with its quoted clause, the detail
// (expected and observed) and the exchanges it cites, the passing rows with the toggles that proved them able to
// fail, and the falsifiability table.
func HTML(w io.Writer, b *Bundle, o HTMLOptions) error {
	return reportTemplate.Execute(w, buildView(b, o))
}

type htmlView struct {
	B            *Bundle
	Standing     string
	IsEvidence   bool
	Unverified   bool // verification was run and failed: the banner says so before anything else
	Unpinned     bool // the bundle states it is evidence, but no pinned key checked its signature
	StandingNote string
	Signer       string
	TestKey      string
	Verification *Report
	Verdicts     []string
	Counts       []countRow
	Total        countRow
	Failing      []rowView
	Abstaining   []rowView
	Passing      []rowView
	Unproven     int
	Fals         *Falsifiability
	StatusLine   string
	Agent        string // the card's name (AgentName)
	Subject      string // "the target", or "the client under test" in a client certification
	// The harness's own self-check rows: reported apart, never part of the target's counts or status.
	SelfCounts []countRow
	SelfTotal  countRow
	SelfRows   []rowView
	// The recommendation rows about the target: reported apart; their findings fail the run only when strict.
	AdvisoryRows     []rowView
	AdvisoryFindings int
	AdvisoryNote     string
}

type countRow struct {
	Document string
	Title    string
	Cells    []countCell
	Total    int
}

type countCell struct {
	Verdict string
	N       int
}

type rowView struct {
	harness.RowVerdict
	Row       catalog.Row
	Known     bool
	Exchanges []exchangeView
	KilledBy  []string
}

type exchangeView struct {
	ID, Summary, Request, Response string
	Found                          bool
}

func buildView(b *Bundle, o HTMLOptions) htmlView {
	cat := catalog.MustLoad()
	v := htmlView{B: b, Standing: Headline(b, o.Verification), IsEvidence: readsAsEvidence(b, o.Verification), Verification: o.Verification,
		Verdicts: harness.VerdictOrder, Fals: b.Falsifiability}
	switch {
	case v.IsEvidence:
		v.StandingNote = "A third-party run, its signature checked with a pinned key (the runner’s public JWK). Check it offline with: runsuite verify bundle.json --key FILE."
	case isEvidence(b):
		v.Unpinned = true
		v.StandingNote = "The bundle states it is a signed third-party run, but its signature was checked only with the key it embeds: that proves integrity, not who signed. Render or verify it with --key (the runner’s published public JWK) to read it as evidence."
	default:
		v.StandingNote = "A self-run result is a claim: it is never presented as evidence (A2A Interview Extension §8 and §9). Only a signed third-party run is evidence."
	}
	if o.Verification != nil && !o.Verification.OK() {
		v.Unverified, v.IsEvidence, v.Unpinned = true, false, false
		v.StandingNote = fmt.Sprintf("Offline verification found %d problems (listed below): this report is neither evidence nor a trustworthy claim.", len(o.Verification.Problems()))
	}
	v.Signer = "unsigned"
	if s := b.Signature; s != nil {
		v.Signer = s.Alg + " key " + s.Thumbprint
		v.TestKey = TestKeyThumbprints[s.Thumbprint]
	}
	exchanges := indexTranscript(o.Transcript)

	v.StatusLine, v.Subject, v.Agent = StatusLine(b), Subject(b), AgentName(b)
	v.Counts, v.Total = countRows(harness.RequiredRows(b.Rows), b.Totals)
	v.AdvisoryFindings, v.AdvisoryNote = b.Advisory.Count, AdvisoryNote(b)
	v.SelfCounts, v.SelfTotal = countRows(harness.SelfCheckRows(b.Rows), b.SelfCheck.Totals)

	for _, r := range b.Rows {
		rv := rowView{RowVerdict: r}
		rv.Row, rv.Known = cat.Row(r.ID)
		if b.Falsifiability != nil {
			rv.KilledBy = b.Falsifiability.Rows[r.ID]
		}
		if r.SelfCheck {
			v.SelfRows = append(v.SelfRows, rv)
			continue
		}
		if r.Advisory {
			v.AdvisoryRows = append(v.AdvisoryRows, rv)
			if !b.Selection.Strict || !r.Counts() {
				continue
			}
		}
		switch {
		case r.Counts():
			for _, id := range r.Exchanges {
				ev := exchangeView{ID: id}
				if ex, ok := exchanges[id]; ok {
					ev.Found = true
					ev.Summary, ev.Request, ev.Response = ex.summary, ex.request, ex.response
				}
				rv.Exchanges = append(rv.Exchanges, ev)
			}
			v.Failing = append(v.Failing, rv)
		case r.Verdict == harness.ExecutedPass:
			if b.Falsifiability != nil && len(rv.KilledBy) == 0 {
				v.Unproven++
			}
			v.Passing = append(v.Passing, rv)
		default:
			v.Abstaining = append(v.Abstaining, rv)
		}
	}
	return v
}

// countRows is the per-document count table of rows, with totals as the bundle states them.
func countRows(rows []harness.RowVerdict, totals map[string]int) ([]countRow, countRow) {
	docs, per := countsByDocument(rows)
	var out []countRow
	total := countRow{Document: "total"}
	for _, d := range docs {
		cr := countRow{Document: d}
		if doc, ok := catalog.DocumentByID(d); ok {
			cr.Title = doc.Title
		}
		for _, verdict := range harness.VerdictOrder {
			cr.Cells = append(cr.Cells, countCell{verdict, per[d][verdict]})
			cr.Total += per[d][verdict]
		}
		out = append(out, cr)
	}
	for _, verdict := range harness.VerdictOrder {
		total.Cells = append(total.Cells, countCell{verdict, totals[verdict]})
		total.Total += totals[verdict]
	}
	return out, total
}

// isEvidence is what every renderer calls evidence: kind evidence, a third-party tier and a signature.
func isEvidence(b *Bundle) bool {
	return b.Kind == "evidence" && b.Runner.Tier == "third-party" && b.Signature != nil
}

type transcriptEntry struct{ summary, request, response string }

func indexTranscript(t []byte) map[string]transcriptEntry {
	out := map[string]transcriptEntry{}
	sc := bufio.NewScanner(bytes.NewReader(t))
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		var ex struct {
			ID             string              `json:"id"`
			Seq            int                 `json:"seq"`
			Note           string              `json:"note"`
			Method         string              `json:"method"`
			URL            string              `json:"url"`
			Status         int                 `json:"status"`
			Error          string              `json:"error"`
			RequestHeader  map[string][]string `json:"requestHeader"`
			RequestBody    []byte              `json:"requestBody"`
			ResponseHeader map[string][]string `json:"responseHeader"`
			ResponseBody   []byte              `json:"responseBody"`
			Events         [][]byte            `json:"events"`
		}
		if json.Unmarshal(sc.Bytes(), &ex) != nil || ex.ID == "" {
			continue
		}
		status := "no response"
		if ex.Status != 0 {
			status = fmt.Sprint(ex.Status)
		}
		s := fmt.Sprintf("ex#%d %s %s → %s", ex.Seq, ex.Method, ex.URL, status)
		if ex.Note != "" {
			s += " (" + ex.Note + ")"
		}
		if ex.Error != "" {
			s += " [error: " + ex.Error + "]"
		}
		resp := headerText(ex.ResponseHeader) + bodyText(ex.ResponseBody)
		for i, e := range ex.Events {
			resp += fmt.Sprintf("\nevent %d: %s", i+1, bodyText(e))
		}
		out[ex.ID] = transcriptEntry{summary: s,
			request:  fmt.Sprintf("%s %s\n%s%s", ex.Method, ex.URL, headerText(ex.RequestHeader), bodyText(ex.RequestBody)),
			response: resp}
	}
	return out
}

func headerText(h map[string][]string) string {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		v := strings.Join(h[k], ", ")
		if strings.EqualFold(k, "Authorization") || strings.EqualFold(k, "Cookie") {
			v = "(redacted in the report; see the transcript)"
		}
		fmt.Fprintf(&b, "%s: %s\n", k, v)
	}
	if b.Len() > 0 {
		b.WriteString("\n")
	}
	return b.String()
}

const bodyClip = 4096

func bodyText(p []byte) string {
	if len(p) == 0 {
		return "(no body)"
	}
	var pretty bytes.Buffer
	if json.Indent(&pretty, p, "", "  ") == nil {
		p = pretty.Bytes()
	}
	if !utf8.Valid(p) {
		return fmt.Sprintf("(%d bytes, not UTF-8)", len(p))
	}
	if len(p) > bodyClip {
		cut := bodyClip
		for cut > 0 && !utf8.RuneStart(p[cut]) {
			cut--
		}
		return string(p[:cut]) + fmt.Sprintf("\n… (%d more bytes in the transcript)", len(p)-cut)
	}
	return string(p)
}

var reportTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"join":  strings.Join,
	"short": short,
	"lower": strings.ToLower,
	"dash":  dash,
	"latSurvived": func(f *Falsifiability) string {
		sv, n := f.LatitudesSurvived()
		return fmt.Sprintf("%d/%d", sv, n)
	},
}).Parse(reportHTML))

const reportHTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>extconf {{if .Unverified}}UNVERIFIED{{else if .IsEvidence}}EVIDENCE{{else if .Unpinned}}UNPINNED{{else}}CLAIM{{end}}: {{if .Agent}}{{.Agent}} {{end}}{{.B.Status}} ({{.B.Runner.Name}})</title>
<style>
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1d232a;background:#f6f7f9}
main{max-width:1180px;margin:0 auto;padding:16px 24px 48px}
h1{font-size:22px;margin:8px 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #d0d5db;padding-bottom:4px}
h3{font-size:15px;margin:0 0 6px}
.banner{padding:16px 20px;border-radius:6px;margin:12px 0;border:3px solid}
.banner strong{font-size:20px;display:block;letter-spacing:.02em}
.banner.claim{background:#fff4d6;border-color:#c98a00;color:#4d3500}
.banner.evidence{background:#e3f5e6;border-color:#2b8a3e;color:#0f3d1a}
.banner.unverified{background:#ffe3e3;border-color:#c92a2a;color:#6b0d0d}
.banner .note{margin-top:6px}
.testkey{background:#ffe3e3;border:1px solid #c92a2a;color:#6b0d0d;padding:6px 10px;border-radius:4px;margin-top:8px}
table{border-collapse:collapse;background:#fff;margin:6px 0;width:100%}
th,td{border:1px solid #d0d5db;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#eef1f4;font-weight:600}
td.n{text-align:right;font-variant-numeric:tabular-nums}
td.zero{color:#9aa3ad}
.v-executed-pass{color:#1b6e2c;font-weight:600}.v-executed-fail{color:#b3261e;font-weight:600}
.v-blocked{color:#8a4b00;font-weight:600}.v-not-tested{color:#8a4b00;font-weight:600}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;background:#fff;padding:10px 14px;border:1px solid #d0d5db}
dl.meta dt{font-weight:600}dl.meta dd{margin:0;word-break:break-all}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
pre{white-space:pre-wrap;word-break:break-word;background:#f0f2f5;padding:8px;border-radius:4px;margin:4px 0}
article.row{background:#fff;border:1px solid #d0d5db;border-left:6px solid #b3261e;padding:10px 14px;margin:10px 0}
article.row.blocked,article.row.not-tested{border-left-color:#c98a00}
blockquote{margin:4px 0;padding:4px 12px;border-left:3px solid #9aa3ad;color:#333}
.ok{color:#1b6e2c;font-weight:600}.fail{color:#b3261e;font-weight:600}.warn{color:#8a5a00;font-weight:600}
details{margin:4px 0}summary{cursor:pointer}
footer{margin-top:32px;color:#5c6670;font-size:12px}
</style>
</head>
<body>
<main>
<h1>extconf conformance report{{if .Agent}}: {{.Agent}}{{end}}</h1>
<div id="standing" class="banner {{if .Unverified}}unverified{{else if .IsEvidence}}evidence{{else}}claim{{end}}" data-kind="{{.B.Kind}}" data-tier="{{.B.Runner.Tier}}">
<strong>{{.Standing}}</strong>
<div class="note">{{.StandingNote}}</div>
{{- if .B.TierBasis}}<div class="note">Tier basis: {{.B.TierBasis}}</div>{{end}}
{{- if .TestKey}}<div class="testkey">Signed with the TEST-ONLY key <code>{{.TestKey}}</code>, whose private half is public: the signature proves integrity, not who ran the harness.</div>{{end}}
</div>

{{with .Verification}}
<h2 id="verification">Offline verification</h2>
<table>
<tr><th>check</th><th>result</th><th>what was found</th></tr>
{{range .Checks}}<tr><td>{{.Name}}</td>{{if .OK}}<td class="ok">holds</td>{{else}}<td class="fail">FAILS</td>{{end}}<td>{{range .Problems}}<div class="fail">{{.}}</div>{{end}}{{range .Notes}}<div>{{.}}</div>{{end}}</td></tr>
{{end}}</table>
{{end}}

<h2>Run</h2>
<dl class="meta">
<dt>status</dt><dd><span class="{{if eq .B.Status "passed"}}ok{{else if eq .B.Status "failed"}}fail{{else}}warn{{end}}" id="status">{{.StatusLine}}</span> ({{len .Failing}} rows about {{.Subject}} count against the run)</dd>
<dt>harness self-check</dt><dd><span class="{{if eq .B.SelfCheck.Status "failed"}}fail{{else}}ok{{end}}" id="self-check-status">{{.B.SelfCheck.Status}}</span>{{if eq .B.SelfCheck.Status "failed"}} — a harness defect, not the failure of {{.Subject}}{{end}}</dd>
<dt>runner</dt><dd>{{if .B.Runner.Name}}{{.B.Runner.Name}}{{else}}(unnamed){{end}}, tier {{.B.Runner.Tier}}, kind {{.B.Kind}}</dd>
<dt>signature</dt><dd>{{.Signer}}</dd>
<dt>harness</dt><dd>{{.B.Harness.Name}} {{.B.Harness.Version}} ({{.B.Harness.GoVersion}}), build {{.B.Harness.Build.Kind}} <code>{{.B.Harness.Build.ID}}</code>{{if .B.Harness.Build.Modified}} (modified working tree){{end}}</dd>
<dt>catalog</dt><dd><code>{{.B.Catalog.Digest}}</code> ({{.B.Catalog.Rows}} rows)</dd>
{{with .B.Target.Client}}<dt>client under test</dt><dd><code>{{.Command}}</code>{{if .Name}} ({{.Name}} {{.Version}}){{end}}{{if .Actions}}, implements {{join .Actions ", "}}{{end}}; {{len .Scenarios}} scenarios, {{len .ScopeRows}} rows graded by them: {{.ScopeStatus}}</dd>
{{end}}<dt>target</dt><dd>{{.B.Target.Kind}}{{if .B.Target.ImageID}}, image <code>{{.B.Target.ImageID}}</code>{{end}}{{if .B.Target.Sabotage}}, sabotage on: {{join .B.Target.Sabotage ", "}}{{end}}</dd>
{{range .B.Target.Cards}}<dt>card {{.Role}}</dt><dd>{{.URL}} <code>{{short .SHA256}}</code>{{if .Provider}}, provider {{.Provider}}{{end}}{{if .DeclaredExtensions}}<br>declares {{join .DeclaredExtensions ", "}}{{end}}</dd>
{{end}}<dt>seed</dt><dd>{{.B.Seed}}</dd>
<dt>time</dt><dd>{{.B.Started}} – {{.B.Finished}}</dd>
<dt>transcript</dt><dd>{{.B.Transcript.File}}: {{.B.Transcript.Exchanges}} exchanges, <code>{{.B.Transcript.SHA256}}</code></dd>
<dt>witness</dt><dd><code>{{.B.WitnessSHA256}}</code></dd>
<dt>assertions</dt><dd>{{.B.AssertionCount}}</dd>
</dl>

<h2>Verdicts per document (requirement rows about {{.Subject}})</h2>
<table id="counts">
<tr><th>document</th>{{range .Verdicts}}<th class="v-{{.}}">{{.}}</th>{{end}}<th>rows</th></tr>
{{range .Counts}}<tr data-document="{{.Document}}"><td title="{{.Title}}">{{.Document}}</td>{{range .Cells}}<td class="n{{if eq .N 0}} zero{{end}}" data-verdict="{{.Verdict}}">{{.N}}</td>{{end}}<td class="n">{{.Total}}</td></tr>
{{end}}<tr data-document="total"><th>total</th>{{range .Total.Cells}}<th class="n" data-verdict="{{.Verdict}}">{{.N}}</th>{{end}}<th class="n">{{.Total.Total}}</th></tr>
</table>

<h2 id="failing">Rows that count against the run ({{len .Failing}})</h2>
{{if not .Failing}}<p>None: every selected applicable row passed and none is blocked.</p>{{end}}
{{range .Failing}}<article class="row {{.Verdict}}" id="row-{{.ID}}">
<h3><span class="v-{{.Verdict}}">{{.Verdict}}</span> {{.ID}}{{if .Known}} · {{.Row.Level}} · {{.Row.Document}} § {{.Row.Section}}{{end}}</h3>
{{if .Known}}<blockquote>“{{.Row.Clause}}”</blockquote>
<div>spec text: <q>{{.Row.Source}}</q></div>{{end}}
{{if .Detail}}<pre>{{.Detail}}</pre>{{end}}
<div>assertions {{.Assertions}}, positive controls {{.Controls}}{{if .Specs}}; specs: {{join .Specs "; "}}{{end}}</div>
{{if .Exchanges}}<div>exchanges:</div>{{range .Exchanges}}{{if .Found}}<details><summary><code>{{.Summary}}</code> <code>{{short .ID}}</code></summary><pre>{{.Request}}</pre><pre>{{.Response}}</pre></details>{{else}}<div><code>{{.ID}}</code> (not in the transcript given to the renderer)</div>{{end}}{{end}}{{else}}<div>exchanges: none cited</div>{{end}}
</article>
{{end}}

<h2 id="advisory">Advisory: recommendation rows ({{len .AdvisoryRows}} rows, {{.AdvisoryFindings}} findings)</h2>
<p>Rows at SHOULD, SHOULD NOT or RECOMMENDED level about {{.Subject}}: graded like any other row, reported here apart. Their findings do not fail the run unless it is strict (<code>runsuite run --strict</code>){{if .AdvisoryNote}}{{.AdvisoryNote}}{{end}}.</p>
{{if .AdvisoryRows}}<table id="advisory-rows">
<tr><th>row</th><th>verdict</th><th>clause</th><th>detail</th></tr>
{{range .AdvisoryRows}}<tr id="advisory-{{.ID}}" data-verdict="{{.Verdict}}"><td>{{.ID}}</td><td class="v-{{.Verdict}}">{{.Verdict}}</td><td>{{if .Known}}{{.Row.Level}} “{{.Row.Clause}}”{{end}}</td><td>{{if .Detail}}<pre>{{.Detail}}</pre>{{end}}</td></tr>
{{end}}</table>{{end}}

<h2 id="self-check">Harness self-check ({{len .SelfRows}} rows)</h2>
<p>Rows witnessed by the harness's own reference client against its own fixtures: they are about the harness, not the target, and never enter the target's counts or status. A failed self-check is a harness defect.</p>
{{if .SelfRows}}<table id="self-counts">
<tr><th>document</th>{{range .Verdicts}}<th class="v-{{.}}">{{.}}</th>{{end}}<th>rows</th></tr>
{{range .SelfCounts}}<tr data-document="{{.Document}}"><td title="{{.Title}}">{{.Document}}</td>{{range .Cells}}<td class="n{{if eq .N 0}} zero{{end}}" data-verdict="{{.Verdict}}">{{.N}}</td>{{end}}<td class="n">{{.Total}}</td></tr>
{{end}}<tr data-document="total"><th>total</th>{{range .SelfTotal.Cells}}<th class="n" data-verdict="{{.Verdict}}">{{.N}}</th>{{end}}<th class="n">{{.SelfTotal.Total}}</th></tr>
</table>
<table>
<tr><th>row</th><th>verdict</th><th>clause</th><th>detail</th></tr>
{{range .SelfRows}}<tr id="row-{{.ID}}"><td>{{.ID}}</td><td class="v-{{.Verdict}}">{{.Verdict}}</td><td>{{if .Known}}{{.Row.Level}} “{{.Row.Clause}}”{{end}}</td><td>{{if .Detail}}<pre>{{.Detail}}</pre>{{end}}</td></tr>
{{end}}</table>{{end}}

<h2 id="abstaining">Inapplicable, unwitnessable and skipped rows ({{len .Abstaining}})</h2>
{{if .Abstaining}}<table>
<tr><th>row</th><th>verdict</th><th>clause</th><th>reason</th></tr>
{{range .Abstaining}}<tr id="row-{{.ID}}"><td>{{.ID}}</td><td>{{.Verdict}}</td><td>{{if .Known}}{{.Row.Level}} “{{.Row.Clause}}”{{end}}</td><td>{{.Detail}}</td></tr>
{{end}}</table>{{else}}<p>None.</p>{{end}}

<h2 id="passing">Passing rows ({{len .Passing}})</h2>
{{if .Fals}}<p>{{if .Unproven}}<span class="fail">{{.Unproven}} passing rows have no sabotage that made their test fail.</span>{{else}}Every passing row was killed by at least one sabotage toggle: its test is proven able to fail.{{end}}</p>{{else}}<p>This bundle carries no falsifiability table (run with <code>--falsify</code>), so it does not show that these rows' tests can fail.</p>{{end}}
{{if .Passing}}<table>
<tr><th>row</th><th>clause</th><th>assertions</th><th>controls</th><th>killed by</th></tr>
{{range .Passing}}<tr id="row-{{.ID}}"><td>{{.ID}}</td><td>{{if .Known}}{{.Row.Level}} “{{.Row.Clause}}”{{end}}</td><td class="n">{{.Assertions}}</td><td class="n">{{.Controls}}</td><td>{{if .KilledBy}}{{join .KilledBy ", "}}{{else}}–{{end}}</td></tr>
{{end}}</table>{{end}}

<h2 id="falsifiability">Falsifiability</h2>
{{with .Fals}}<p>{{if .Run}}{{.Run}}. {{end}}{{if .Runs}}{{.Runs}} runs: the reference agents with no sabotage, then one run per toggle; a targeted row counts as killed only when it failed there and passed in the reference run.{{end}}</p>
{{if .ReferenceNotPassing}}<p class="fail">Rows that did not pass against the unsabotaged reference agents: {{join .ReferenceNotPassing ", "}}</p>{{end}}
<table id="toggles">
<tr><th>toggle</th><th>document</th><th>side</th><th>targets</th><th>killed</th><th>survived</th><th>collateral</th></tr>
{{range .Toggles}}<tr><td><code>{{.ID}}</code></td><td>{{.Document}}</td><td>{{.Side}}</td><td>{{join .Targets ", "}}</td><td class="ok">{{dash (join .Killed ", ")}}</td><td{{if .Survived}} class="fail"{{end}}>{{dash (join .Survived ", ")}}{{if .Error}} ({{.Error}}){{end}}</td><td>{{dash (join .Collateral ", ")}}</td></tr>
{{end}}</table>
{{if .Latitudes}}<h3 id="latitudes">Latitudes: latitudes survived {{latSurvived .}}</h3>
<p>One run per latitude, a choice the documents permit, over the whole of its documents: it survives when no row of them is executed-fail, not-tested or blocked without a reason.</p>
<table id="latitude-table">
<tr><th>latitude</th><th>documents</th><th>permits</th><th>rows</th><th>survived</th><th>failed rows</th></tr>
{{range .Latitudes}}<tr><td><code>{{.ID}}</code></td><td>{{join .Documents ", "}}</td><td>{{.Permits}}</td><td class="n">{{.Rows}}</td><td{{if .Survived}} class="ok">yes{{else}} class="fail">no{{end}}</td><td>{{if or .Failed .Error}}{{range .Failed}}<code>{{.Row}}</code> {{.Verdict}}: {{.Detail}}<br>{{end}}{{.Error}}{{else}}–{{end}}</td></tr>
{{end}}</table>{{end}}
{{else}}<p>No falsifiability table in this bundle.</p>{{end}}

<footer>Generated from bundle witness <code>{{.B.WitnessSHA256}}</code> by extconf {{.B.Harness.Version}}. This file loads nothing from the network. {{.Standing}}</footer>
</main>
</body>
</html>
`
