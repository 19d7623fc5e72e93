package main

import (
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/extconf/extconf/"

// documentRoots are the folders that hold a document's code: its suites, its reference agent, its reference client,
// its client scenarios and the toggles that break it. The engine (harness/...) reaches none of them.
var documentRoots = []string{"suites", "mockagents", "refclients", "certify", "sabotage", "falsify"}

func isUnder(pkg string, roots ...string) bool {
	for _, r := range roots {
		if pkg == r || strings.HasPrefix(pkg, r+"/") {
			return true
		}
	}
	return false
}

// TestImportDirection keeps the README's "dependencies point one way" true: nothing under harness/ imports a
// document package (suites, reference clients), the mock agents, certify, sabotage or the falsification engine;
// suites import no mock and no sabotage (they see only a target and the engine's fault interface); sabotage is a
// leaf. Test files are not part of the graph (suites' run tests start the reference agents on purpose).
func TestImportDirection(t *testing.T) {
	out, err := exec.Command("go", "list", "-json=ImportPath,Imports", "github.com/extconf/extconf/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	var bad []string
	seen := 0
	for {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		seen++
		pkg := strings.TrimPrefix(p.ImportPath, module)
		for _, imp := range p.Imports {
			if !strings.HasPrefix(imp, module) {
				continue
			}
			dep := strings.TrimPrefix(imp, module)
			var why string
			switch {
			case isUnder(pkg, "harness") && isUnder(dep, documentRoots...):
				why = "the engine imports no document package, reference client, mock, certify, sabotage or falsify"
			case isUnder(pkg, "suites") && isUnder(dep, "mockagents", "sabotage"):
				why = "suites see only a target: no mock agent, no sabotage registry"
			case pkg == "sabotage":
				why = "sabotage is a leaf"
			case isUnder(pkg, "refclients") && isUnder(dep, "suites", "mockagents", "certify", "falsify"):
				why = "a reference client is a leaf of its document: it reaches no suite, mock, certify or falsify"
			case isUnder(pkg, "mockagents") && isUnder(dep, "suites"):
				why = "mock agents never reach the suites"
			}
			if why != "" {
				bad = append(bad, pkg+" → "+dep+": "+why)
			}
		}
	}
	if seen < 20 {
		t.Fatalf("go list listed %d packages; expected the whole module", seen)
	}
	for _, b := range bad {
		t.Error(b)
	}
}

// TestContainerLauncherIsolated: only cmd and the container package's own tests link testcontainers.
func TestContainerLauncherIsolated(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", module+"suites/...", module+"mockagents/...", module+"harness").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	if strings.Contains(string(out), "testcontainers") {
		t.Error("a suite, a mock agent or the engine links testcontainers-go; only cmd and harness/target/container may")
	}
}
