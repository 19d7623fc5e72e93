package terms_test

import (
	"strings"
	"testing"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/mockagents/terms"
	"github.com/extconf/extconf/sabotage"
)

// TestLatitudes runs the terms suite against the reference agent with each latitude option on: a choice the
// document (or the Agent SoW SPEC it defers to) permits must leave no row executed-fail or not-tested.
// Each option is also a registered latitude (terms.lat.*) that Start switches on from the set; this stays as a
// focused test of the options alone.
func TestLatitudes(t *testing.T) {
	// Options that remove what a row is about make it inapplicable (the regressions of #17: these rows used to be
	// blocked).
	wantInapplicable := map[string][]string{"unsigned-card": {"TE-8.3b"}, "no-term-prose": {"TE-4.1b", "TE-4.1c"}}
	for name := range terms.OptionNames {
		if name == "unreachable-host" {
			continue // a regression case, not a latitude: TestUnreachableHostBlocks
		}
		t.Run(name, func(t *testing.T) {
			opt, err := terms.ParseOptions(name)
			if err != nil {
				t.Fatal(err)
			}
			got := runWith(t, sabotage.Set{}, opt)
			for id, v := range got {
				if v.Advisory && v.Verdict == harness.ExecutedFail {
					continue // declining a SHOULD (in-place-change declines §8's) is a latitude for the MUST rows
				}
				if v.Verdict == harness.ExecutedFail || v.Verdict == harness.NotTested || v.Verdict == harness.Blocked {
					t.Errorf("%s: %s is %s: %s", name, id, v.Verdict, firstLine(v.Detail))
				}
			}
			for _, row := range wantInapplicable[name] {
				if got[row].Verdict != harness.Inapplicable {
					t.Errorf("%s: %s is %s, want inapplicable (%s)", name, row, got[row].Verdict, firstLine(got[row].Detail))
				}
			}
		})
	}
}

// TestUnreachableHostBlocks: a proposal on an origin the run may not reach blocks TE-3.3d naming the origin to
// allow (terms §8 allows third-party hosting); it used to fail the row.
func TestUnreachableHostBlocks(t *testing.T) {
	got := runWith(t, sabotage.Set{}, terms.Options{UnreachableHost: true})
	v := got["TE-3.3d"]
	if v.Verdict != harness.Blocked || !strings.Contains(v.Detail, "allowOrigins") || !strings.Contains(v.Detail, "https://192.0.2.1") {
		t.Errorf("TE-3.3d is %s: %s", v.Verdict, v.Detail)
	}
	for id, v := range got {
		if v.Verdict == harness.ExecutedFail && !v.Advisory {
			t.Errorf("%s failed: %s", id, firstLine(v.Detail))
		}
	}
	// A proposal on another host does not follow §8's SHOULD: an advisory finding on TE-8.5, never a failure.
	if v := got["TE-8.5"]; v.Verdict != harness.ExecutedFail || !v.Advisory {
		t.Errorf("TE-8.5 is %s (advisory %v), want an advisory executed-fail: the url is on 192.0.2.1, not the card's host", v.Verdict, v.Advisory)
	}
}
