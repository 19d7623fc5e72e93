package schemaiface

import (
	"slices"

	"github.com/extconf/extconf/harness"
)

// Rows that pick, among the advertised skills, one of a kind (a skill that applies or proposes a change, a root format member) and need
// its valid arguments. Where skills of that kind exist but none has arguments (the run derives none for a skill
// with side effects), the row is blocked naming the skill's arguments, never inapplicable: it applies.

// argRow is one such row: which skills it can use.
type argRow struct {
	row  string
	what string
	fits func(tree map[string]any) bool
}

// changeModes are the default modes of skills that apply or propose a change, in the order SI-6.5a prefers them.
var changeModes = []string{"execute", "recommend_only"}

var argRows = []argRow{
	{"SI-6.5a", "a skill that applies or proposes a change (authority.default_mode execute or recommend_only)", func(t map[string]any) bool {
		return slices.Contains(changeModes, defaultMode(t))
	}},
	{"SI-6.12b", "a skill whose input_schema declares a format at its root", func(t map[string]any) bool {
		_, _, ok := formatMember(inputSchema(t), "")
		return ok
	}},
	{"SI-6.13b", "a skill whose input_schema declares a date-time member at its root", func(t map[string]any) bool {
		_, _, ok := formatMember(inputSchema(t), "date-time")
		return ok
	}},
}

// argumentNeeds lists, for the skills' documents in survey order, the rows of argRows that have a fitting skill
// without arguments and none with: each is blocked on that skill's arguments (config check adds them to its
// prediction; the spec ends with the same W.Need).
func argumentNeeds(skills []string, trees map[string]map[string]any, hasArgs func(string) bool) []harness.Need {
	var out []harness.Need
	for _, r := range argRows {
		missing := ""
		found := false
		for _, sk := range skills {
			if t := trees[sk]; t != nil && r.fits(t) {
				if hasArgs(sk) {
					found = true
					break
				}
				if missing == "" {
					missing = sk
				}
			}
		}
		if !found && missing != "" {
			out = append(out, harness.Need{Member: "arguments." + missing, Rows: []string{r.row},
				What: "valid arguments for " + missing + ", " + r.what + " (the run derives arguments only for skills without side effects)"})
		}
	}
	return out
}

// needArguments ends row blocked when argumentNeeds says so for this run's survey; otherwise the row is
// inapplicable with why (no skill of its kind at all).
func (s *sess) needArguments(w *harness.W, row, why string) {
	var skills []string
	trees := map[string]map[string]any{}
	for _, d := range s.survey().docs {
		skills = append(skills, d.skill)
		trees[d.skill] = d.tree
	}
	for _, n := range argumentNeeds(skills, trees, func(sk string) bool { _, ok := s.arguments(sk); return ok }) {
		if n.Rows[0] == row {
			w.Need(n.Member, false, n.What)
		}
	}
	w.Inapplicable(why)
}
