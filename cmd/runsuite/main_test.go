package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func runCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestUsageErrorsExit2(t *testing.T) {
	for _, args := range [][]string{
		{"nonsense"},
		{"run", "--no-such-flag"},
		{"run", "--suite", "not-a-document"},
		{"run", "--tier", "steward"},
		{"run", "--sabotage", "no.such-toggle"},
		{"run", "--target", "ftp://127.0.0.1/"},
		{"catalog", "--format", "yaml"},
		{"verify"},
		{"sabotage", "show"},
	} {
		if code, _, stderr := runCLI(args...); code != exitUsage {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", args, code, stderr)
		}
	}
}

func TestCatalogJSON(t *testing.T) {
	code, out, _ := runCLI("catalog", "--format", "json")
	if code != exitPass {
		t.Fatalf("exit %d", code)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	docs := map[string]int{}
	for _, r := range rows {
		docs[r["document"].(string)]++
		for _, k := range []string{"id", "section", "level", "subject", "source", "clause", "witness", "why", "aliases"} {
			if _, ok := r[k]; !ok {
				t.Fatalf("row %v lacks %s", r["id"], k)
			}
		}
	}
	for _, d := range []string{"interview", "on-request", "schema-interface", "terms", "agent-cards"} {
		if docs[d] == 0 {
			t.Errorf("no rows for %s", d)
		}
	}
}

func TestCheckSpecsMissingDirFails(t *testing.T) {
	code, out, _ := runCLI("catalog", "--check-specs", t.TempDir())
	if code != exitFail || !strings.Contains(out, "MISSING") {
		t.Fatalf("exit %d, out %q", code, out)
	}
}

func TestSabotageList(t *testing.T) {
	if code, out, _ := runCLI("sabotage", "list"); code != exitPass || !strings.HasPrefix(out, "toggle") {
		t.Fatalf("exit %d, out %q", code, out)
	}
}

func TestMockListenRefusesNonLoopback(t *testing.T) {
	for _, addr := range []string{"10.0.0.1:9400", "0.0.0.0:9400", "localhost:9400", "127.0.0.1:notaport"} {
		if code, _, _ := runCLI("mock", "--listen", addr); code != exitUsage {
			t.Errorf("mock --listen %s: exit %d, want 2 before anything is bound", addr, code)
		}
	}
}

func TestCatalogIndex(t *testing.T) {
	code, out, _ := runCLI("catalog", "--format", "index")
	if code != exitPass || !strings.HasPrefix(out, "row ") || !strings.Contains(out, "TE-3.1 ") ||
		!strings.Contains(out, "terms.declaration-required-true") || strings.Contains(out, "STALE") {
		t.Fatalf("exit %d, out %.400q", code, out)
	}
	code, out, _ = runCLI("catalog", "--format", "index-json")
	var ix struct {
		Rows []struct {
			ID        string            `json:"id"`
			Specs     []map[string]any  `json:"specs"`
			Toggles   []map[string]any  `json:"toggles"`
			Latitudes []json.RawMessage `json:"latitudes"`
		} `json:"rows"`
	}
	if code != exitPass {
		t.Fatalf("exit %d", code)
	}
	if err := json.Unmarshal([]byte(out), &ix); err != nil || len(ix.Rows) == 0 {
		t.Fatalf("%v, %d rows", err, len(ix.Rows))
	}
	for _, r := range ix.Rows {
		if r.Latitudes == nil {
			t.Fatalf("row %s: no latitudes list", r.ID)
		}
	}
}
