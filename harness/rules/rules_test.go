package rules

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness/a2a"
)

const okRule = `
id: P-X-1
document: terms
source: "A sentence."
level: MUST
witness: static
check: "true"
sabotage:
  target: card
  patch: [{op: add, path: /x, value: 1}]
`

func TestExamplesLoadAndMatchSchema(t *testing.T) {
	rs, err := LoadDir("../../examples/rules")
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) < 4 {
		t.Fatalf("%d example rules, want at least 4 (three static, one wire)", len(rs))
	}
	for _, r := range rs {
		if r.Restates == "" {
			t.Errorf("%s: the examples restate published rows", r.ID)
		}
	}
}

// A rule file is untrusted input: strict decoding names the path of what is wrong.
func TestParseIsStrict(t *testing.T) {
	cases := map[string]struct{ src, want string }{
		"unknown top member":    {okRule + "extra: 1\n", "extra: unknown member"},
		"unknown nested member": {strings.Replace(okRule, "value: 1}", "valu: 1}", 1), "sabotage.patch[0].valu: unknown member"},
		"unknown latitude member": {okRule + "latitudes: [{id: a, permits: p, target: card, patch: [{op: remove, path: /x}], why: 1}]\n",
			"latitudes[0].why: unknown member"},
		"duplicate member":            {okRule + "level: MUST\n", `member "level" appears twice`},
		"alias":                       {"base: &b {op: remove, path: /x}\n" + okRule, "anchors are not allowed"},
		"wrong type":                  {strings.Replace(okRule, `source: "A sentence."`, "source: [a]", 1), "source: want a string"},
		"published id":                {strings.Replace(okRule, "P-X-1", "TE-3.1", 1), "is a published catalog row"},
		"bad level":                   {strings.Replace(okRule, "level: MUST", "level: MAY", 1), "level"},
		"bad cel":                     {strings.Replace(okRule, `check: "true"`, `check: "card.("`, 1), "check"},
		"non-bool check":              {strings.Replace(okRule, `check: "true"`, `check: "'yes'"`, 1), "want bool"},
		"io function":                 {strings.Replace(okRule, `check: "true"`, `check: "http.get('https://x') == ''"`, 1), "check"},
		"bad op":                      {strings.Replace(okRule, "op: add", "op: merge", 1), "sabotage.patch[0]"},
		"missing value":               {strings.Replace(okRule, ", value: 1}", "}", 1), "value"},
		"wire w/o request":            {strings.Replace(okRule, "witness: static", "witness: wire", 1), "request"},
		"response target w/o request": {strings.Replace(okRule, "target: card", "target: response", 1), "response"},
		"two documents":               {okRule + "---\n" + okRule, "more than one YAML document"},
		"too large":                   {okRule + "# " + strings.Repeat("x", MaxRuleBytes) + "\n", "larger than"},
	}
	if _, err := Parse([]byte(okRule)); err != nil {
		t.Fatalf("the base rule: %v", err)
	}
	for name, c := range cases {
		_, err := Parse([]byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to mention %q", name, err, c.want)
		}
	}
}

func TestPatchRFC6902(t *testing.T) {
	cases := []struct{ doc, patch, want, err string }{
		{`{"foo":"bar"}`, `[{"op":"add","path":"/baz","value":"qux"}]`, `{"baz":"qux","foo":"bar"}`, ""},
		{`{"foo":["bar","baz"]}`, `[{"op":"add","path":"/foo/1","value":"qux"}]`, `{"foo":["bar","qux","baz"]}`, ""},
		{`{"foo":["bar"]}`, `[{"op":"add","path":"/foo/-","value":"x"}]`, `{"foo":["bar","x"]}`, ""},
		{`{"baz":"qux","foo":"bar"}`, `[{"op":"remove","path":"/baz"}]`, `{"foo":"bar"}`, ""},
		{`{"foo":["bar","qux","baz"]}`, `[{"op":"remove","path":"/foo/1"}]`, `{"foo":["bar","baz"]}`, ""},
		{`{"baz":"qux"}`, `[{"op":"replace","path":"/baz","value":"boo"}]`, `{"baz":"boo"}`, ""},
		{`{"foo":{"bar":"baz"}}`, `[{"op":"move","from":"/foo/bar","path":"/q"}]`, `{"foo":{},"q":"baz"}`, ""},
		{`{"foo":1}`, `[{"op":"copy","from":"/foo","path":"/bar"}]`, `{"bar":1,"foo":1}`, ""},
		{`{"baz":"qux"}`, `[{"op":"test","path":"/baz","value":"qux"}]`, `{"baz":"qux"}`, ""},
		{`{"baz":"qux"}`, `[{"op":"test","path":"/baz","value":"bar"}]`, "", "test failed"},
		{`{"foo":"bar"}`, `[{"op":"replace","path":"/nope","value":1}]`, "", "no member"},
		{`{"foo":"bar"}`, `[{"op":"add","path":"/a/b","value":1}]`, "", "no member"},
		{`{"foo":[1]}`, `[{"op":"add","path":"/foo/5","value":1}]`, "", "out of range"},
		{`{"a/b":1}`, `[{"op":"remove","path":"/a~1b"}]`, `{}`, ""},
	}
	for _, c := range cases {
		var ops []Op
		if err := json.Unmarshal([]byte(c.patch), &ops); err != nil {
			t.Fatal(err)
		}
		got, err := ApplyPatch([]byte(c.doc), ops)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s on %s: err %v, want %q", c.patch, c.doc, err, c.err)
			}
			continue
		}
		if err != nil || string(got) != c.want {
			t.Errorf("%s on %s: %s, %v; want %s", c.patch, c.doc, got, err, c.want)
		}
	}
}

// The CEL environment is bounded: a runaway expression stops at the cost limit, well inside the timeout.
func TestCELIsBounded(t *testing.T) {
	list := make([]any, 200)
	for i := range list {
		list[i] = float64(i)
	}
	start := time.Now()
	_, err := evalBool(context.Background(), "card.all(x, card.all(y, card.all(z, x + y + z >= 0.0)))",
		map[string]any{"card": list, "document": nil, "request": nil, "response": nil})
	// The cost limit normally stops it first; on a slow machine (or under -race) the timeout may.
	if err == nil || !(strings.Contains(err.Error(), "cost limit") || strings.Contains(err.Error(), "deadline")) {
		t.Fatalf("err = %v, want a cost limit or timeout error", err)
	}
	if d := time.Since(start); d > EvalTimeout+time.Second {
		t.Errorf("took %v", d)
	}
}

// stubAgent is a tiny A2A agent on TLS loopback: a card, a JSON document it names, and a JSON-RPC endpoint
// that refuses GetTask for an unknown task with -32001.
func stubAgent(t *testing.T) *httptest.Server {
	cert, err := testpki.IssueLeaf()
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	srv := httptest.NewUnstartedServer(mux)
	mux.HandleFunc("/.well-known/agent-card.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"name":"stub","description":"d","version":"1","supportedInterfaces":[{"url":"%[1]s/rpc","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],
			"capabilities":{},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[],"policy":"%[1]s/policy.json"}`, srv.URL)
	})
	mux.HandleFunc("/policy.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"retentionDays":30}`)
	})
	mux.HandleFunc("/rpc", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     any    `json:"id"`
			Method string `json:"method"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID,
			"error": map[string]any{"code": -32001, "message": "task not found: " + req.Method}})
	})
	srv.TLS = &tlsConfig{Certificates: []tlsCertificate{cert}}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv
}

func bed(t *testing.T, srv *httptest.Server) Bed {
	cert, err := testpki.IssueLeaf()
	if err != nil {
		t.Fatal(err)
	}
	return Bed{CardURL: srv.URL + "/.well-known/agent-card.json", Cert: cert, CAs: testpki.CAPool(),
		Client: func() *a2a.Client { return a2a.NewClient(a2a.Options{RootCAs: testpki.CAPool()}) }}
}

const wireRule = `
id: P-WIRE-1
document: terms
source: "An unknown task id MUST be refused with TaskNotFoundError."
level: MUST
witness: wire
request:
  method: GetTask
  params: {id: "no-such-task", name: "{{card:/name}}"}
check: "response.status == 200 && has(response.body.error) && response.body.error.code == -32001 && request.params.name == 'stub'"
observe: "string(response.body)"
sabotage:
  target: response
  patch: [{op: replace, path: /error/code, value: -32603}]
latitudes:
  - id: error-data
    permits: "A2A lets an error carry data"
    target: response
    patch: [{op: add, path: /error/data, value: {detail: x}}]
`

const docRule = `
id: P-DOC-1
document: terms
source: "The policy document MUST state a retention of at most 30 days."
level: MUST
witness: static
fetch: /policy
check: "document.retentionDays <= 30"
sabotage:
  target: document
  patch: [{op: replace, path: /retentionDays, value: 90}]
latitudes:
  - id: shorter
    permits: "at most 30"
    target: document
    patch: [{op: replace, path: /retentionDays, value: 7}]
`

func TestProveWireAndDocumentRules(t *testing.T) {
	srv := stubAgent(t)
	for _, src := range []string{wireRule, docRule} {
		r, err := Parse([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		p := Prove(context.Background(), r, bed(t, srv))
		if !p.Proven {
			t.Errorf("%s not proven: %v (clean %+v, sabotage %+v)", r.ID, p.Why, p.Clean, p.Sabotage)
		}
		if p.Sabotage.Result != "killed" || p.Sabotage.Applied == 0 {
			t.Errorf("%s: sabotage %+v", r.ID, p.Sabotage)
		}
	}
}

// A rule whose sabotage does not break what it checks, or whose check fails on the clean agent, is not proven,
// and the proof says why.
func TestProveNamesWhy(t *testing.T) {
	srv := stubAgent(t)
	cases := map[string]struct{ src, want string }{
		"sabotage misses": {strings.Replace(docRule, "value: 90}", "value: 30}", 1), "does not make the check fail"},
		"fails clean":     {strings.Replace(docRule, "<= 30", "<= 10", 1), "does not pass on the clean reference agent"},
		"patch misses":    {strings.Replace(docRule, "path: /retentionDays, value: 90", "path: /nope, value: 90", 1), "sabotage patch was not applied"},
		"latitude fails":  {strings.Replace(docRule, "value: 7}", "value: 70}", 1), "latitude shorter"},
		"wrong reason":    {strings.Replace(wireRule, "path: /error/code, value: -32603", "path: /error, value: 5", 1), "did not fail on its own check"},
	}
	for name, c := range cases {
		r, err := Parse([]byte(c.src))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		p := Prove(context.Background(), r, bed(t, srv))
		if p.Proven || !strings.Contains(strings.Join(p.Why, "\n"), c.want) {
			t.Errorf("%s: proven %v, why %q; want it to mention %q", name, p.Proven, p.Why, c.want)
		}
	}
}

type (
	tlsConfig      = tls.Config
	tlsCertificate = tls.Certificate
)
