package certify

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/catalog"
	cc "github.com/extconf/extconf/harness/clientcert"
	"github.com/extconf/extconf/sabotage"
)

// certifyHooks runs only the hook scenarios (hooks.go) on command: a second or two.
func certifyHooks(t *testing.T, command string) map[string]harness.RowVerdict {
	t.Helper()
	o, err := Options(catalog.MustLoad(), cc.Driver{Command: command, Timeout: 30 * time.Second}, t.TempDir(), siDoc)
	if err != nil {
		t.Fatal(err)
	}
	o.Scenarios = SIHooks()
	res, err := cc.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	return verdicts(res)
}

var hookRows = []string{"SI-12.2e", "SI-12.2g", "SI-12.9a"}

// The reference adapter offers the hooks and declares its cache limit: it passes the three rows, and SI-12.3b on
// the compilation refusal.
func TestHooksReferencePasses(t *testing.T) {
	v := certifyHooks(t, refclient)
	for _, id := range append(hookRows, "SI-12.3b") {
		if v[id].Verdict != harness.ExecutedPass {
			t.Errorf("%s: %s %s", id, v[id].Verdict, v[id].Detail)
		}
	}
}

// A client that offers no hook and declares no cache_entries is neither passed nor failed: each row reads
// not-tested naming exactly what to declare.
func TestHooksUndeclaredReadNotTested(t *testing.T) {
	for cmd, want := range map[string]map[string]string{
		refclient + " --omit hooks,cache_entries": {"SI-12.2e": `declare "hooks":["compile_budget"]`, "SI-12.9a": `declare "hooks":["schema_copy"]`,
			"SI-12.2g": "declare limits.cache_entries"},
		refclient + " --omit limits,hooks":       {"SI-12.2g": "declare limits.cache_entries"},
		refclient + " --limits cache_entries=65": {"SI-12.2g": "beyond what the harness serves"},
		// a client that ignores EXTCONF_SKILLS invokes once; one keeping no document cache describes every time
		"env -u " + cc.EnvSkills + " " + refclient: {"SI-12.2g": "does not implement " + cc.EnvSkills},
		refclient + " --no-cache":                  {"SI-12.2g": "reuses no cached document"},
	} {
		v := certifyHooks(t, cmd)
		for id, reason := range want {
			if v[id].Verdict != harness.NotTested || !strings.Contains(v[id].Detail, reason) {
				t.Errorf("%s: %s: %s %q (want not-tested naming %q)", cmd, id, v[id].Verdict, v[id].Detail, reason)
			}
		}
	}
}

// A client that breaks the mechanism a hook reaches fails its row: it ignores the budget, validates with the
// tampered copy, keeps every document.
func TestHooksBrokenClientFails(t *testing.T) {
	for toggle, row := range map[sabotage.ID]string{
		sabotage.SIClientNoLimitCompilationTime:  "SI-12.2e",
		sabotage.SIClientSkipSchemaIntegrity:     "SI-12.9a",
		sabotage.SIClientNoLimitCacheConsumption: "SI-12.2g",
	} {
		v := certifyHooks(t, refclient+" --sabotage "+string(toggle))
		if v[row].Verdict != harness.ExecutedFail {
			t.Errorf("%s: %s %s %s", toggle, row, v[row].Verdict, v[row].Detail)
		}
		for _, id := range hookRows {
			if id != row && v[id].Verdict != harness.ExecutedPass {
				t.Errorf("%s: collateral %s %s %s", toggle, id, v[id].Verdict, v[id].Detail)
			}
		}
	}
}
