package schemaiface

import (
	"strings"
	"testing"
)

// A limit the probe did not find is not written, so the note never says it was derived.
func TestLimitsNoteNamesOnlyWhatWasDerived(t *testing.T) {
	n := limitsNote(&limitsProfile{Skill: "s", PayloadBytes: 65536})
	if strings.Contains(n, "nestingDepth 0") || !strings.Contains(n, "payloadBytes 65536") || !strings.Contains(n, "not derived: nestingDepth") {
		t.Errorf("note: %s", n)
	}
}
