package interview

import (
	vinterview "github.com/extconf/extconf/refclients/interview"
)

// maxSelectorSkills bounds the selector calls per method against a card declaring many skills.
const maxSelectorSkills = 8

// selectorAnswers asks each method with each declared skill id as its selector (§4 rule 3, exact match), each a
// positive control that the call is answered. Their projections are judged like the selector-less ones: §4 rule 1
// "Every answer is a projection of declared bytes", §5 rule 2 "value MUST be exactly the value at that pointer".
func (s *session) selectorAnswers(methods []string, note string) []*vinterview.Reply {
	var out []*vinterview.Reply
	for _, m := range methods {
		for i, id := range s.skills {
			if i == maxSelectorSkills {
				break
			}
			out = append(out, s.answer(m, map[string]any{"skill": id}, note+": "+m+" with the selector "+id))
		}
	}
	return out
}
