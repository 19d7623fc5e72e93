package falsify

import (
	"regexp"
	"strings"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/sabotage"
)

// needBlock is how a row blocked on a missing operator input reads (harness.W.Need): "documents.<id>.<member> is
// missing: …". Any other block names something no statement supplies (an answer, the network).
var needBlock = regexp.MustCompile(`documents\.([a-z-]+)\.([A-Za-z0-9_.|<>-]+) is missing: `)

// statableBlock returns what a row the latitude left blocked names, when its operator could have stated it: a
// latitude runs with its operator's statement (the reference agents announce it with the latitude on, and that
// statement certifies them with nothing blocked without the latitude), so a row blocked under it is a defect of the
// suite or of the statement, never a survived latitude, unless the latitude says why its operator cannot state
// what the row needs (Latitude.Unstatable, keyed by the row id, the documents member the block names, or words of the block).
func statableBlock(l sabotage.Latitude, r harness.RowVerdict) string {
	if r.Verdict != harness.Blocked {
		return ""
	}
	if _, ok := l.Unstatable[r.ID]; ok {
		return ""
	}
	for k := range l.Unstatable {
		if strings.Contains(r.Detail, k) {
			return "" // the block names the unstatable fact itself
		}
	}
	if m := needBlock.FindStringSubmatch(r.Detail); m != nil {
		if _, ok := l.Unstatable[m[2]]; ok {
			return ""
		}
		return "documents." + m[1] + "." + m[2]
	}
	return r.ID
}
