package evidence_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	harnessevidence "github.com/extconf/extconf/harness/evidence"
	"github.com/extconf/extconf/sabotage"
)

// RemakeReference is the documented command that re-makes the committed reference bundle (evidence/reference/).
const RemakeReference = "GOFLAGS=-buildvcs=true go run ./cmd/runsuite run --out evidence/reference --force --as extconf-reference --tier third-party " +
	"--sign-key fixtures/evidencekeys/test-signing.jwk.json --falsify --seed 1"

// TestReferenceBundleVerifies checks the committed reference bundle as a third party would, offline: schema,
// the signature pinned to the TEST-ONLY key, every transcript line and digest, totals, catalog, rows and the
// falsifiability table. A bundle made before the catalog or the sabotage registry changed fails with the command
// that re-makes it.
func TestReferenceBundleVerifies(t *testing.T) {
	path := filepath.Join("reference", "bundle.json")
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("no committed reference bundle (%v): make it from the repository root with\n  %s", err, RemakeReference)
	}
	key, err := harnessevidence.ReadPublicKey(filepath.Join("..", "fixtures", "evidencekeys", "test-signing.pub.jwk.json"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := harnessevidence.VerifyBundle(path, harnessevidence.VerifyOptions{Key: key, KnownToggle: sabotage.Known, KnownLatitude: sabotage.KnownLatitude})
	if err != nil {
		t.Fatalf("%v\nre-make with:\n  %s", err, RemakeReference)
	}
	if !rep.OK() {
		stale := ""
		for _, p := range rep.Problems() {
			if strings.Contains(p, "different catalog version") || strings.Contains(p, "does not exist in this harness") {
				stale = "The reference bundle is stale: the catalog or the sabotage registry changed since it was made. "
			}
		}
		t.Fatalf("%sthe committed reference bundle does not verify:\n  %s\nre-make it from the repository root with:\n  %s",
			stale, strings.Join(rep.Problems(), "\n  "), RemakeReference)
	}
	b := rep.Bundle
	if b.Kind != "evidence" || b.Runner.Name != "extconf-reference" || b.Runner.Tier != "third-party" {
		t.Errorf("kind %q runner %+v: the reference bundle is a signed third-party run by extconf-reference", b.Kind, b.Runner)
	}
	if !rep.Signature.Valid || rep.Signature.KeySource != "--key" || rep.Signature.TestKey == "" {
		t.Errorf("signature %+v: want valid, pinned to the TEST-ONLY key", rep.Signature)
	}
	if b.Target.Kind != "mock" || len(b.Target.Sabotage) != 0 {
		t.Errorf("target %+v: the reference bundle is of the unsabotaged reference agents", b.Target)
	}
	if b.Falsifiability == nil || b.Falsifiability.Runs == 0 || b.Falsifiability.Run == "" {
		t.Errorf("the reference bundle carries no stamped falsifiability table (re-make with --falsify)")
	}
}
