package target

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The configuration is the operator's word: a member that is misspelt, differs in case, is doubled or is followed
// by more data must be a configuration error naming it, never a silently different run.
func TestLoadConfigIsStrict(t *testing.T) {
	for body, want := range map[string]string{
		`{"Limits": {"maxBody": 5}}`:                           `unknown member "Limits" at $ (member names are case-sensitive: did you mean "limits"?)`,
		`{"principals": {"A": {"Header": "X", "value": "v"}}}`: `unknown member "Header" at $.principals.A`,
		`{"caFile": "a", "caFile": "b"}`:                       `duplicate member "caFile" at $`,
		`{"provider": "x"} {"provider": "y"}`:                  "trailing data",
		`{"on-request.operater": "x"}`:                         `unknown member "on-request.operater" at $`,
	} {
		p := filepath.Join(t.TempDir(), "target.json")
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := LoadConfig(p)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("LoadConfig(%s) = %v, want an error containing %q", body, err, want)
		}
	}
}
