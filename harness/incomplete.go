package harness

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Cause is one reason rows could not be graded, with the rows it stands for.
type Cause struct {
	Text  string   // what to state or fix: a configuration member, a remedy, or the detail's first line
	Rows  []string // the rows it blocked or left not tested, in row order
	Where []string // for a transport failure: the origins it happened at
}

// unansweredPrefix leads the detail of a row a transport failure blocked (a2a.Unreachable.Detail).
const unansweredPrefix = "not answered: "

// causeMax is how many causes an incomplete status names; the rest are counted.
const causeMax = 3

// Causes groups the blocked and not-tested rows by what would unblock them, most rows first: one shared cause (a
// dead target, a CA the operator did not configure, a missing member) is named once with the rows it stands for.
func Causes(rows []RowVerdict) []Cause {
	idx := map[string]int{}
	var out []Cause
	for _, r := range rows {
		if r.Verdict != Blocked && r.Verdict != NotTested {
			continue
		}
		c := CauseOf(r.Detail)
		where := ""
		if rest, ok := strings.CutPrefix(c, unansweredPrefix); ok {
			// One transport failure at several origins (a CA nobody configured) is one cause.
			if o, cause, ok := strings.Cut(rest, ": "); ok {
				c, where = unansweredPrefix+cause, o
			}
		}
		i, ok := idx[c]
		if !ok {
			i = len(out)
			idx[c] = i
			out = append(out, Cause{Text: c})
		}
		out[i].Rows = append(out[i].Rows, r.ID)
		if where != "" && !slices.Contains(out[i].Where, where) {
			out[i].Where = append(out[i].Where, where)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].Rows) > len(out[j].Rows) })
	return out
}

// CauseOf is what a blocked row's detail asks for: the member of a missing need ("documents.terms.proposal"),
// the remedy of a transport failure (its first line names the origin, the failure and the remedy), else the
// detail's first line.
func CauseOf(detail string) string {
	line := strings.TrimSpace(detail)
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = strings.TrimSpace(line[:i])
	}
	if strings.HasPrefix(line, "documents.") {
		if i := strings.Index(line, " is missing"); i > 0 {
			return line[:i]
		}
	}
	if line == "" {
		return "no reason given"
	}
	if strings.HasPrefix(line, unansweredPrefix) {
		return line // a transport failure: origin, cause and remedy, whole
	}
	return clip(line, 160)
}

// IncompleteReason is the reason of an incomplete status: "0 failed, N blocked[, M not tested] (causes)", the
// causes deduplicated, the most frequent first, each with the number of rows it stands for.
func IncompleteReason(rows []RowVerdict) string {
	blocked, untested := 0, 0
	for _, r := range rows {
		switch r.Verdict {
		case Blocked:
			blocked++
		case NotTested:
			untested++
		}
	}
	s := fmt.Sprintf("0 failed, %d blocked", blocked)
	if untested > 0 {
		s += fmt.Sprintf(", %d not tested", untested)
	}
	causes := Causes(rows)
	var parts []string
	for i, c := range causes {
		if i == causeMax {
			parts = append(parts, fmt.Sprintf("%d more cause(s)", len(causes)-causeMax))
			break
		}
		text := c.Text
		switch len(c.Where) {
		case 0:
		case 1:
			text += " at " + c.Where[0]
		default:
			text += fmt.Sprintf(" at %s and %d other origin(s)", c.Where[0], len(c.Where)-1)
		}
		parts = append(parts, fmt.Sprintf("%s [%d %s]", text, len(c.Rows), plural(len(c.Rows), "row", "rows")))
	}
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, "; ") + ")"
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
