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

// An input whose every string is bounded (enum, pattern, maxLength) has no member to lengthen: the payload probe pads
// the message metadata instead, leaving the arguments valid, and still reaches the size asked for (issue #35: the
// independent agent's payload limit could be neither derived nor stated).
func TestPaddedWithoutAMemberPadsMetadata(t *testing.T) {
	sch := map[string]any{"properties": map[string]any{
		"router":    map[string]any{"type": "string", "enum": []any{"edge-1"}},
		"interface": map[string]any{"type": "string", "pattern": "^ge-"},
	}}
	args := []byte(`{"router":"edge-1","interface":"ge-0/0/1"}`)
	if p := padMember(sch, args); p != "" {
		t.Fatalf("padMember %q, want none", p)
	}
	en := entry{SkillID: "get_interface_status", SkillVersion: "1.0", Digest: "sha256:00"}
	for _, size := range []int{16 << 10, 70000} {
		m := padded(en, args, "", size)
		if got := len(mustJSON(m)); got < size-8 || got > size+8 {
			t.Errorf("size %d: message is %d bytes", size, got)
		}
		if !strings.Contains(string(m.Metadata), "extconf_padding") || !strings.Contains(string(mustJSON(m.Parts[0])), `"arguments":`+string(args)) {
			t.Errorf("size %d: padding not in metadata, or arguments changed: %.200s", size, mustJSON(m))
		}
	}
}
