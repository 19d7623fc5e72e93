package hostile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/mockagents/hostile"
	"github.com/extconf/extconf/refclients/skiface"
	"github.com/extconf/extconf/suites"
	"github.com/extconf/extconf/suites/terms"
)

func TestParseLimits(t *testing.T) {
	l, err := harness.ParseLimits(nil)
	if err != nil || l.A2A != a2a.DefaultLimits() || len(l.Documents) != 0 || len(l.AllowOrigins) != 0 {
		t.Fatalf("empty limits: %+v, %v; want the defaults", l, err)
	}
	l, err = harness.ParseLimits([]byte(`{"callTimeout":"750ms","maxBody":1024,"maxJSONDepth":16,"maxCardSkills":7,
		"allowOrigins":["HTTPS://Proposals.Example.com","http://127.0.0.1:8080/"],
		"schemaInterface":{"maxNesting":9,"compileTimeout":"3s"}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := a2a.DefaultLimits()
	want.CallTimeout, want.MaxBody, want.MaxJSONDepth, want.MaxCardSkills = 750*time.Millisecond, 1024, 16, 7
	if l.A2A != want {
		t.Errorf("a2a limits %+v, want %+v", l.A2A, want)
	}
	ws := skiface.DefaultLimits()
	ws.MaxNesting, ws.CompileTimeout = 9, 3*time.Second
	if got, err := skiface.ParseLimits(l.Documents[skiface.LimitsMember]); err != nil || got != ws {
		t.Errorf("schema-interface limits %+v (%v), want %+v", got, err, ws)
	}
	if strings.Join(l.AllowOrigins, " ") != "https://proposals.example.com:443 http://127.0.0.1:8080" {
		t.Errorf("allowOrigins %v", l.AllowOrigins)
	}
	for _, bad := range []string{
		`{"callTimout":"1s"}`,              // misspelt: must not silently not apply
		`{"maxBody":0}`,                    // not positive
		`{"callTimeout":"-1s"}`,            // not positive
		`{"callTimeout":5}`,                // not a duration string
		`{"allowOrigins":["file:///"]}`,    // not an http(s) origin
		`{"allowOrigins":["https://x/p"]}`, // a path is not an origin
		`{"schemaInterface":{"maxDepth":3}}`,
		`{"schemaInterfce":{"maxNesting":3}}`, // a document section no document claims
	} {
		if err := harness.CheckConfig(target.Config{Limits: []byte(bad)}, suites.Documents()...); err == nil {
			t.Errorf("CheckConfig(limits %s) accepted it", bad)
		}
	}
}

// writeConfig writes a target configuration file and loads it the way cmd/runsuite does.
func writeConfig(t *testing.T, body string) target.Config {
	t.Helper()
	p := filepath.Join(t.TempDir(), "target.json")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := target.LoadConfig(p)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestLimitsOverrideTakesEffect goes the CLI's way: target configuration file → target.LoadConfig →
// harness.LimitsOf → harness.Options.Limits, and shows each override in the failing row.
func TestLimitsOverrideTakesEffect(t *testing.T) {
	cfg := writeConfig(t, `{"limits":{"callTimeout":"700ms","maxJSONDepth":200}}`)
	lim, err := harness.LimitsOf(cfg)
	if err != nil || lim == nil {
		t.Fatalf("LimitsOf: %v, %v", lim, err)
	}
	if none, err := harness.LimitsOf(target.Config{}); none != nil || err != nil {
		t.Fatalf("LimitsOf(no limits member) = %v, %v; want nil (defaults)", none, err)
	}

	o := run(t, hostile.OneBytePerSecond, runSpec{suites: []harness.Suite{terms.Suite()}, rows: cardRows, limits: *lim, cfg: cfg, bound: 10 * time.Second, quiet: true})
	o.want(t, "TE-3.1", fail, "limit exceeded: call-timeout (700ms)")
	if o.wall >= time.Second {
		t.Errorf("the run took %s with a 700ms call timeout", o.wall)
	}

	o = run(t, hostile.DeepNesting, runSpec{suites: []harness.Suite{terms.Suite()}, rows: cardRows, limits: *lim, cfg: cfg, quiet: true})
	o.want(t, "TE-3.1", fail, "limit exceeded: max-json-depth (200 levels)", "nesting reaches 201")
}

// TestAllowOriginsTakesEffect: an origin listed in limits.allowOrigins is followed (the recording dialer sees the
// attempt, and refuses it, so the test still never leaves loopback); unlisted, the same URL is refused before any
// dial (TestProposalURLPublicName).
func TestAllowOriginsTakesEffect(t *testing.T) {
	cfg := writeConfig(t, `{"limits":{"allowOrigins":["https://`+hostile.PublicName+`"]}}`)
	a, err := hostile.Start(hostile.ProposalPublicName)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	dw := watchDials(t, a.Addr())
	lim := testLimits()
	res, err := harness.Run(t.Context(), a.Target(cfg), harness.Options{Suites: []harness.Suite{terms.Suite()}, Rows: []string{"TE-3.3d"}, Limits: &lim, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	off := dw.offOrigin()
	if len(off) != 1 || off[0] != hostile.PublicName+":443" {
		t.Fatalf("dials off the agent: %v, want exactly one attempt at %s:443 (allowed by limits.allowOrigins)", off, hostile.PublicName)
	}
	for _, r := range res.Rows {
		if r.ID == "TE-3.3d" && (r.Verdict != harness.ExecutedFail || !strings.Contains(r.Detail, "test dial hook")) {
			t.Errorf("TE-3.3d: %s %s; want a failure at the (test-refused) dial", r.Verdict, observed(r.Detail))
		}
	}
}
