package schemaiface

import (
	"fmt"
	"strings"
)

// limitsNote says which limits were derived and which were not: a limit the probe did not find is not written
// (the rows needing it stay blocked), so the note never reports it as derived.
func limitsNote(l *limitsProfile) string {
	var found, missing []string
	for _, m := range []struct {
		name string
		v    int
	}{{"payloadBytes", l.PayloadBytes}, {"nestingDepth", l.NestingDepth}} {
		if m.v > 0 {
			found = append(found, fmt.Sprintf("%s %d", m.name, m.v))
		} else {
			missing = append(missing, m.name)
		}
	}
	note := fmt.Sprintf("limits derived on %s: %s (requests just under completed, just over were refused with resource_limit_exceeded)", l.Skill, strings.Join(found, ", "))
	if len(missing) > 0 {
		note += "; not derived: " + strings.Join(missing, ", ") + " (no size up to the probe's bound was refused with the limit): give it, or declare it absent"
	}
	return note
}
