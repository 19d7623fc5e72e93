package onrequest

import (
	"regexp"
	"strings"
)

// clauseStart ends the clause a match is read in: a sentence end, a semicolon, or a contrast ("…, but I can
// arrange a callback" offers one though an earlier clause said nobody is there).
var clauseStart = regexp.MustCompile(`(?i)[.!?;:]\s|\n|\b(but|however|although|though|instead|yet|otherwise)\b`)

// negators govern a match in their clause: "I cannot transfer you", "no transfer or callback".
var negators = map[string]bool{"no": true, "not": true, "never": true, "cannot": true, "can't": true, "cant": true,
	"unable": true, "nobody": true, "neither": true, "nor": true, "without": true, "won't": true, "wont": true,
	"isn't": true, "aren't": true, "don't": true, "doesn't": true, "didn't": true, "couldn't": true,
	"wouldn't": true, "none": true, "impossible": true, "unavailable": true}

// afterNegation follows a match that is denied after the fact: "callbacks are not offered", "a transfer is not
// possible here", "a callback isn't something we can arrange".
var afterNegation = regexp.MustCompile(`(?i)^[^.!?;]{0,25}?\b(is|are|was|were)\s+(not|n't|never|unavailable|impossible)\b|^\w*\s*(isn't|aren't|is not|are not|cannot|can't)\b`)

// Negated reports whether the match text[lo:hi] is governed by a negation in its own clause (up to eight words
// before it) or denied right after it.
func Negated(text string, lo, hi int) bool {
	before := text[:lo]
	if idx := clauseStart.FindAllStringIndex(before, -1); len(idx) > 0 {
		before = before[idx[len(idx)-1][1]:]
	}
	words := strings.Fields(strings.ToLower(before))
	for i := len(words) - 1; i >= 0 && i >= len(words)-8; i-- {
		w := strings.Trim(words[i], ",()\"'“”‘’")
		w = strings.ReplaceAll(w, "’", "'")
		if negators[w] || strings.HasSuffix(w, "n't") {
			return true
		}
	}
	return afterNegation.MatchString(text[hi:])
}

// FirstUnnegated returns the first match of any pattern not governed by a negation in its clause ("" when none).
func FirstUnnegated(pats []*regexp.Regexp, text string) string {
	for _, p := range pats {
		for _, loc := range p.FindAllStringIndex(text, -1) {
			if !Negated(text, loc[0], loc[1]) {
				return text[loc[0]:loc[1]]
			}
		}
	}
	return ""
}

// OffersRoute returns the first route to staff the text offers (OR-5.10), read with its negation: "I cannot
// transfer you or arrange a callback" offers none.
func (p Phrases) OffersRoute(text string) string { return FirstUnnegated(p.Route, text) }

// pendingWords say an accepted action is not finished yet: received or recorded for someone to act on, or done by
// someone later. With Later, they are what a task ending COMPLETED for a deferred action must say (OR-5.8a).
var pendingWords = []*regexp.Regexp{
	regexp.MustCompile(`(?i)\b(request|callback request|details|booking request|notice) (is|are|has been|have been|was) (now )?(recorded|received|logged|noted|submitted|passed on|passed to|sent|queued|accepted|with (our|the) (staff|team|office))\b`),
	regexp.MustCompile(`(?i)\b(calls?|rings?|phones?|contacts?|gets? back to)( you)?( back)? (on|tomorrow|later|within|next|in due course|when|once|as soon as)\b`),
	regexp.MustCompile(`(?i)\b(in (the|our) queue|pending|not (yet )?(done|complete|completed|arranged|booked|made|published)|yet to be)\b`),
}

// SaysPending returns the first words in text saying an accepted action is still to be done ("" when none): the
// Later lexicon, NotDone, and the pending words.
func (p Phrases) SaysPending(text string) string {
	for _, list := range [][]*regexp.Regexp{p.Later, p.NotDone, pendingWords} {
		if m := MatchAny(list, text); m != "" {
			return m
		}
	}
	return ""
}
