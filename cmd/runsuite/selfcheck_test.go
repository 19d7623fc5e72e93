package main

import (
	"encoding/xml"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/harness/evidence"
)

// Issue 35, item 5: self-checks never depend on the target. Against an agent declaring nothing, one declaring the
// interview over HTTP+JSON only, a dead target and one behind a CA the operator did not configure, every self-check
// row passes, as against the reference agents; JUnit keeps them out of the target's failures and names the agent.
func TestSelfChecksDoNotDependOnTheTarget(t *testing.T) {
	plain, err := a2atest.Start(a2atest.Agent{Name: "echo"}, a2atest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	restOnly, err := a2atest.Start(a2atest.Agent{Name: "rest only", Card: func(base string) any {
		return map[string]any{
			"name": "rest only", "description": "declares the interview, HTTP+JSON only", "version": "1.0.0",
			"supportedInterfaces": []map[string]string{{"url": base, "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"}},
			"capabilities":        map[string]any{"extensions": []map[string]any{{"uri": "https://agentsow.com/extensions/a2a-interview/v1"}}},
			"defaultInputModes":   []string{"text/plain"}, "defaultOutputModes": []string{"text/plain"},
			"skills": []map[string]any{{"id": "s", "name": "s", "description": "d", "tags": []string{"t"}}},
		}
	}}, a2atest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer restOnly.Close()
	dead := httptest.NewServer(http.NotFoundHandler())
	deadURL := dead.URL
	dead.Close()
	untrusted := httptest.NewTLSServer(http.NotFoundHandler())
	defer untrusted.Close()

	for name, url := range map[string]string{"declares nothing": plain.URL(), "HTTP+JSON only": restOnly.URL(),
		"dead": deadURL, "untrusted CA": untrusted.URL + "/card.json"} {
		t.Run(name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "run")
			junit := filepath.Join(t.TempDir(), "junit.xml")
			code, stdout, stderr := runCLI("run", "--target", url, "--suite", "interview,terms,on-request,schema-interface", "--out", out, "--junit", junit, "--quiet")
			if code == exitUsage || code == exitHarness {
				t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
			}
			b, _, err := evidence.Load(filepath.Join(out, "bundle.json"))
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, r := range b.Rows {
				if r.SelfCheck && r.Verdict != harness.Skipped {
					n++
					if r.Verdict != harness.ExecutedPass {
						t.Errorf("self-check %s: %s %q (against the reference agents: executed-pass)", r.ID, r.Verdict, r.Detail)
					}
				}
			}
			if n != 98 || b.SelfCheck.Status != harness.SelfCheckPassed {
				t.Errorf("%d self-check rows, status %s; want the 98 of interview, terms, on-request and schema-interface, passed", n, b.SelfCheck.Status)
			}
			raw, err := os.ReadFile(junit)
			if err != nil {
				t.Fatal(err)
			}
			var doc struct {
				Suites []struct {
					Name     string `xml:"name,attr"`
					Failures int    `xml:"failures,attr"`
					Errors   int    `xml:"errors,attr"`
				} `xml:"testsuite"`
			}
			if err := xml.Unmarshal(raw, &doc); err != nil {
				t.Fatal(err)
			}
			for _, s := range doc.Suites {
				if s.Name == "harness self-check" && (s.Failures != 0 || s.Errors != 0) {
					t.Errorf("JUnit counts self-checks against the run: %+v", s)
				}
			}
			if agent := evidence.AgentName(b); agent != "" && !strings.Contains(string(raw), `<testsuite name="interview (`+agent+`)"`) {
				t.Errorf("JUnit suites do not name the agent %q:\n%.800s", agent, raw)
			}
		})
	}
}
