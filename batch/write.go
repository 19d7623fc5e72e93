package batch

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/extconf/extconf/harness"
)

// The index files, written side by side.
const (
	IndexJSON  = "index.json"
	IndexHTML  = "index.html"
	IndexJUnit = "junit.xml"
)

// Write writes index.json, index.html and junit.xml into dir (each written whole, then renamed into place).
func Write(dir string, idx *Index) error {
	j, err := json.MarshalIndent(idx, "", "  ")
	if err != nil {
		return err
	}
	var h bytes.Buffer
	if err := page.Execute(&h, idx); err != nil {
		return err
	}
	x, err := junitOf(idx)
	if err != nil {
		return err
	}
	for name, data := range map[string][]byte{IndexJSON: append(j, '\n'), IndexHTML: h.Bytes(), IndexJUnit: x} {
		tmp := filepath.Join(dir, "."+name+".tmp")
		if err := os.WriteFile(tmp, data, 0o644); err != nil {
			return err
		}
		if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	return nil
}

// One test suite per agent: "bundle verification", then one case per document the bundle covers, failing when
// a requirement row about the target counts against it (executed-fail, blocked, not-tested), skipped when no row
// of it was executed.
type jSuites struct {
	XMLName  xml.Name `xml:"testsuites"`
	Name     string   `xml:"name,attr"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Skipped  int      `xml:"skipped,attr"`
	Suites   []jSuite `xml:"testsuite"`
}

type jSuite struct {
	Name     string  `xml:"name,attr"`
	Tests    int     `xml:"tests,attr"`
	Failures int     `xml:"failures,attr"`
	Skipped  int     `xml:"skipped,attr"`
	Cases    []jCase `xml:"testcase"`
}

type jCase struct {
	Name      string   `xml:"name,attr"`
	Classname string   `xml:"classname,attr"`
	Failure   *jResult `xml:"failure,omitempty"`
	Skipped   *jResult `xml:"skipped,omitempty"`
}

type jResult struct {
	Message string `xml:"message,attr"`
	Body    string `xml:",chardata"`
}

func junitOf(idx *Index) ([]byte, error) {
	all := jSuites{Name: fmt.Sprintf("extconf index: %d agents, worst exit %d", len(idx.Entries), idx.Exit)}
	for _, e := range idx.Entries {
		s := jSuite{Name: e.Name}
		v := jCase{Name: "bundle verification", Classname: e.Name}
		if !e.Verified {
			v.Failure = &jResult{Message: e.Headline, Body: strings.Join(e.Problems, "\n")}
		}
		s.Cases = append(s.Cases, v)
		for _, d := range sortedKeys(e.Documents) {
			c := jCase{Name: d, Classname: e.Name}
			n := e.Documents[d]
			counts := countLine(n)
			switch {
			case n[harness.ExecutedFail]+n[harness.Blocked]+n[harness.NotTested] > 0:
				c.Failure = &jResult{Message: fmt.Sprintf("%s: %s", d, counts), Body: e.Headline}
			case !slices.Contains(e.DocumentsGraded, d):
				c.Skipped = &jResult{Message: fmt.Sprintf("%s: no row executed (%s)", d, counts)}
			}
			s.Cases = append(s.Cases, c)
		}
		for _, c := range s.Cases {
			s.Tests++
			if c.Failure != nil {
				s.Failures++
			}
			if c.Skipped != nil {
				s.Skipped++
			}
		}
		all.Tests, all.Failures, all.Skipped = all.Tests+s.Tests, all.Failures+s.Failures, all.Skipped+s.Skipped
		all.Suites = append(all.Suites, s)
	}
	out, err := xml.MarshalIndent(all, "", "  ")
	if err != nil {
		return nil, err
	}
	return append([]byte(xml.Header), append(out, '\n')...), nil
}

// countLine is "12 executed-pass, 1 executed-fail" in the harness's verdict order, zeros left out.
func countLine(n map[string]int) string {
	var parts []string
	for _, v := range harness.VerdictOrder {
		if n[v] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[v], v))
		}
	}
	if len(parts) == 0 {
		return "no rows"
	}
	return strings.Join(parts, ", ")
}

func sortedKeys[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

var page = template.Must(template.New("index").Funcs(template.FuncMap{
	"counts": countLine, "join": strings.Join,
	"short": func(s string) string {
		if len(s) > 19 {
			return s[:19] + "…"
		}
		return s
	},
}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>extconf index: {{len .Entries}} agents</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<style>body{font:14px system-ui,sans-serif;margin:1.5em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em .5em;text-align:left;vertical-align:top}
.passed{background:#e6f4e6}.failed,.unverified,.missing{background:#fbe3e3}code{font-size:12px}</style></head>
<body><h1>extconf index: {{len .Entries}} agents, worst exit {{.Exit}}</h1>
<p>{{range $s, $n := .Statuses}}{{$n}} {{$s}}; {{end}}{{if .PinnedKey}}signatures checked with the pinned key {{.PinnedKey}}{{else}}no key pinned: a signature proves integrity, not who ran the harness{{end}}.
Each bundle was verified offline; the index says only what its bundle says.</p>
<table><thead><tr><th>agent</th><th>status</th><th>exit</th><th>headline</th><th>target</th><th>rows about the target</th><th>documents executed</th><th>bundle</th></tr></thead><tbody>
{{range .Entries}}<tr class="{{.Status}}" data-agent="{{.Name}}"><td>{{.Name}}</td><td>{{.Status}}</td><td>{{.Exit}}</td><td>{{.Headline}}{{range .Problems}}<br><code>{{.}}</code>{{end}}</td>
<td>{{with .Target}}{{.Kind}} {{.Card}}{{if .Provider}} ({{.Provider}}){{end}}{{end}}</td><td>{{counts .Totals}}</td><td>{{join .DocumentsGraded ", "}}</td>
<td>{{if .BundleSHA256}}<a href="{{.Bundle}}">{{.Bundle}}</a><br><code title="{{.BundleSHA256}}">{{short .BundleSHA256}}</code>{{end}}{{if .Log}} <a href="{{.Log}}">log</a>{{end}}</td></tr>
{{end}}</tbody></table></body></html>
`))
