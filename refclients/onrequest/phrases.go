package onrequest

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Phrases are the wording patterns of the rows graded on words (English defaults). Each match is quoted in the
// verdict so that a reviewer can judge it.
type Phrases struct {
	OperatorGives   []*regexp.Regexp // OR-5.3b, OR-5.4b: the operator gives this to the person who asks
	Denial          []*regexp.Regexp // OR-5.3d: answers as though the information did not exist
	NotDone         []*regexp.Regexp // OR-6.2: the action was not done
	Later           []*regexp.Regexp // OR-3.6: someone completes it later
	NobodyReachable []*regexp.Regexp // OR-5.10: nobody can be reached
	Route           []*regexp.Regexp // OR-5.10: a route to staff offered (transfer, callback)
	Done            []*regexp.Regexp // OR-3.6, OR-5.8: extra done-words for SaysDone (the operator's)
}

func res(pats ...string) []*regexp.Regexp {
	out := make([]*regexp.Regexp, len(pats))
	for i, p := range pats {
		out[i] = regexp.MustCompile(`(?i)` + p)
	}
	return out
}

// DefaultPhrases are the English patterns.
var DefaultPhrases = Phrases{
	OperatorGives: res(
		`\bon request\b`,
		`\b(gives?|shares?|provides?|tells?|quotes?)\b[^.]{0,60}\b(to|with)\b (the )?((person|people|those|anyone|family|families|someone) (who|that)|whoever) (asks?|enquires?|requests?)`,
		`\b(ask|contact) (us|them|the \w+) directly\b`,
		// Passive: "prices are given to the person who asks".
		`\b(is|are|gets?|get) (only )?(given|shared|provided|told|quoted|disclosed|discussed|explained|offered|available)\b[^.]{0,60}\b(to|with)\b (the )?(person|people|whoever|those|anyone|family|families|someone|customers?|clients?) (who|that) (asks?|enquires?|requests?)`,
	),
	Denial: res(
		`\bno (such )?(information|prices?|details|data|record)\b`,
		`\b(don't|do not|doesn't|does not) (have|know|exist|offer)\b`,
		`\bnot available\b`, `\bunknown\b`, `\bdoes not exist\b`, `\bno longer (offered|available)\b`,
		`\b(can't|cannot|unable to) find\b`,
	),
	NotDone: res(
		`\b(can't|cannot|could not|couldn't|did not|didn't|will not|won't|(?:am|'m|is|are) not able to|unable to|not able to) (book|do|carry|complete|make|change|correct|arrange|publish|record|amend|process|schedule|take|accept)`,
		`\bnot (been )?(done|booked|carried out|made|changed|corrected|arranged|published|processed)\b`,
	),
	// Later reads someone completing the action after the exchange, never a date: "your meeting is tomorrow at
	// 10:00" books something for tomorrow and is finished now.
	Later: res(
		`\b(will|shall|'ll|is going to|are going to)\s+(\w+\s+)?(complete|finish|finalise|finalize|process|action|review|confirm|approve|handle|get back|follow up|be in touch|call you back|book it|arrange it|make the (change|booking))`,
		`\b(complete[ds]?|finish(ed)?|finalised|finalized|process(ed)?|actioned|confirmed|handled|approved|reviewed)\s+(it\s+|this\s+|them\s+)?(later|in due course|on the next working day|the next working day|within \d+ (hours?|days?|working days?))`,
		`\bnot yet (done|complete|completed|booked|confirmed|finished|final)\b`,
		`\b(pending|awaiting|waiting (for|on)) (staff|a member of staff|review|approval|confirmation|a director|our team)\b`,
		`\b(in due course|once (a|our) (member of staff|director|team)|a member of staff (will|must|needs to))\b`,
		`\bprovisional(ly)?\b`,
	),
	NobodyReachable: res(
		`\b(no one|nobody|no-one|no member of staff|no staff|no humans?|no people)\b[^.]{0,40}\b(available|reached|reachable|answers?|here|on duty|on hand|works?|working|to (speak|talk) (to|with))\b`,
		`\bnot staffed\b`, `\bunstaffed\b`, `\bunattended\b`, `\bno (human|staff|person|people) (staff|support|contact|available)\b`,
		`\b(there (are|is) )?no (staff|staff members?|members? of staff|one|people|person|humans?)\b[^.]{0,30}\b(at this (location|office|site|address)|to (speak|talk) (to|with)|working here)\b`,
		`\b(can't|cannot|can not|are unable to|am unable to|is not possible to|isn't possible to|not able to) (reach|speak to|talk to|connect you (to|with)|put you through to|transfer you to) (a|any|a member of|our|anyone|anybody|a real|a human)\b`,
		`\b(staff|people|humans?|directors?|members? of staff|anyone|anybody)\s+(is|are)\s+(not|never)\s+(available|reachable|on hand|here)\b`,
		`\b(staff|people|anyone|anybody) (isn't|aren't) (available|reachable|here)\b`,
		`\bno way (to|of) (reach(ing)?|speak(ing)? to|talk(ing)? to|contact(ing)?) (a|any|our) (person|human|staff|member of staff)\b`,
		`\b(only|fully) automated\b`, `\bno (live|human) (agents?|operators?|support)\b`,
	),
	Route: res(
		`\b(put|putting) you through\b`, `\btransfer(ring)? (you|your call)\b`, `\bconnect(ing)? you\b`,
		`\b(call|ring|phone) you back\b`, `\bcall-?backs?\b`, `\bput you in touch\b`, `\bhand(ing)? you over\b`,
		`\bspeak to (a|one of our) (member of staff|director|person)\b.{0,20}\bnow\b`,
		`\b(someone|a member of staff|a director|one of our (team|staff|directors)) (will|can|could) (call|ring|phone|contact) you\b`,
	),
}

// PhraseKeys are the lexicon's names, as an operator statement extends them ("phrases": {"operatorGives": […]}).
var PhraseKeys = []string{"operatorGives", "denial", "notDone", "later", "nobodyReachable", "route", "done"}

// Extend returns p with extra patterns (Go regular expressions, matched case-insensitively) appended under their
// lexicon names (PhraseKeys). "done" patterns extend SaysDone's done-words. An unknown name or a pattern that does
// not compile is an error, so that a typo never silently changes a verdict.
func (p Phrases) Extend(extra map[string][]string) (Phrases, error) {
	out := p
	for k, pats := range extra {
		var list []*regexp.Regexp
		for _, pat := range pats {
			re, err := regexp.Compile(`(?i)` + pat)
			if err != nil {
				return p, fmt.Errorf("phrases.%s: %q: %v", k, pat, err)
			}
			list = append(list, re)
		}
		switch k {
		case "operatorGives":
			out.OperatorGives = append(slices.Clip(out.OperatorGives), list...)
		case "denial":
			out.Denial = append(slices.Clip(out.Denial), list...)
		case "notDone":
			out.NotDone = append(slices.Clip(out.NotDone), list...)
		case "later":
			out.Later = append(slices.Clip(out.Later), list...)
		case "nobodyReachable":
			out.NobodyReachable = append(slices.Clip(out.NobodyReachable), list...)
		case "route":
			out.Route = append(slices.Clip(out.Route), list...)
		case "done":
			out.Done = append(slices.Clip(out.Done), list...)
		default:
			return p, fmt.Errorf("phrases: unknown lexicon %q (known: %v)", k, PhraseKeys)
		}
	}
	return out, nil
}

// SaysDone is SaysDone with the lexicon's extra done-words as well.
func (p Phrases) SaysDone(text string) string {
	return saysDone(text, append([]*regexp.Regexp{doneWords}, p.Done...))
}

// channelQualifier follows a denial that is about the channel, not the information: "not available online",
// "we don't have prices here", "not available to assistants". A referral says exactly that, so it is no denial.
var channelQualifier = regexp.MustCompile(`(?i)^[\s,]*(\w+\s+){0,3}(online|here|publicly|in public|on (the|our|this) (web|website|site|page|channel)|by (phone|telephone|email|this channel)|through (this|an?) \w+|via \w+|to (assistants?|agents?|automated|machines?|clients?|callers?|third parties|anyone but))\b`)

// Denies returns the first denial in text (OR-5.3d) that is not qualified by a channel ("not available online"),
// not given with a reason (§9 item 3: "prices depend on the arrangement, so there is no price list") and not
// followed by where it is given ("I don't have that information, but the chapel gives it to whoever asks"): ""
// when none.
func (p Phrases) Denies(text string) string {
	for _, re := range p.Denial {
		for _, loc := range re.FindAllStringIndex(text, -1) {
			if channelQualifier.MatchString(text[loc[1]:]) {
				continue
			}
			sentence, rest := sentenceAround(text, loc[0], loc[1])
			if denialReason.MatchString(sentence) {
				continue
			}
			if m := contrastTail.FindStringSubmatchIndex(rest); m != nil {
				tail := rest[m[1]:]
				if MatchAny(p.OperatorGives, tail) != "" || referralTail.MatchString(tail) {
					continue
				}
			}
			return text[loc[0]:loc[1]]
		}
	}
	return ""
}

// denialReason is the kind of reason §9 item 3 expects an operator to give: the value depends on the case.
var denialReason = regexp.MustCompile(`(?i)\b(depends?|depending|vary|varies|varying|individual(ly)?|tailored|bespoke|case by case|each (arrangement|case|family|service|situation|person)|on (your|the) (arrangement|circumstances|choices|needs)|because|since (prices|costs|fees|it)|as (prices|costs|fees|it) (depends?|vary|varies))\b`)

// contrastTail opens the clause that says where the information is: "…, but …".
var contrastTail = regexp.MustCompile(`(?i)^[^.!?]*?\b(but|however|instead)\b`)

// referralTail says where to ask: an address or an invitation to ask the operator.
var referralTail = regexp.MustCompile(`(?i)https?://|tel:|\+\d|\b(ask|contact|call|ring|visit|enquire|speak to|talk to)\b|\b(gives?|shares?|provides?|quotes?)\b`)

// sentenceAround returns the sentence holding text[lo:hi] and the part of it after the match (a full stop inside
// an address does not end it).
func sentenceAround(text string, lo, hi int) (string, string) {
	start := 0
	if idx := sentenceEnd.FindAllStringIndex(text[:lo], -1); len(idx) > 0 {
		start = idx[len(idx)-1][1]
	}
	end := len(text)
	if m := sentenceEnd.FindStringIndex(text[hi:]); m != nil {
		end = hi + m[0]
	}
	return text[start:end], text[hi:end]
}

var sentenceEnd = regexp.MustCompile(`[.!?](\s|$)|\n`)

// MatchAny returns the first match of any pattern ("" when none).
func MatchAny(pats []*regexp.Regexp, text string) string {
	for _, p := range pats {
		if m := p.FindString(text); m != "" {
			return m
		}
	}
	return ""
}

var (
	doneWords = regexp.MustCompile(`(?i)\b(done|completed|finished|booked( in)?|confirmed|arranged|published|carried out|all set|scheduled|corrected|amended|sorted|reserved|(is|are|was|'s|now) complete|is (now )?live|(is|are) now (active|in place|up)|taken care of|processed|cancell?ed|has been made|have been made)\b`)
	negations = map[string]bool{"not": true, "never": true, "no": true, "yet": true, "cannot": true, "can't": true,
		"couldn't": true, "unable": true, "isn't": true, "wasn't": true, "hasn't": true, "haven't": true,
		"won't": true, "didn't": true, "nothing": true, "until": true, "before": true, "once": true, "when": true,
		"if": true, "must": true, "after": true,
		// Future or possible, not done: "will be published", "can be booked".
		"will": true, "shall": true, "would": true, "can": true, "could": true, "may": true, "be": true, "to": true}
)

// SaysDone returns the first claim in text that something is done (a done-word not governed by a negation, a
// condition or a future within the three words before it: "not yet done", "once confirmed", "will be booked" are
// not claims). "" when none. A word-list reading, so the rows using it say they are wording-checked.
func SaysDone(text string) string { return saysDone(text, []*regexp.Regexp{doneWords}) }

// forPurpose is what follows a done-word that names a plan, not a result: "scheduled for staff to action",
// "arranged for a director to call".
var forPurpose = regexp.MustCompile(`(?i)^\s+(for\s+(\S+\s+){0,3}to\s|to be\s)`)

func saysDone(text string, words []*regexp.Regexp) string {
	var locs [][]int
	for _, re := range words {
		locs = append(locs, re.FindAllStringIndex(text, -1)...)
	}
	slices.SortFunc(locs, func(a, b []int) int { return a[0] - b[0] })
	for _, loc := range locs {
		if forPurpose.MatchString(text[loc[1]:]) {
			continue
		}
		// Look back at most three words, and never past a sentence boundary.
		before := strings.Fields(strings.ToLower(text[:loc[0]]))
		neg := false
		for i := len(before) - 1; i >= 0 && i >= len(before)-3; i-- {
			if strings.HasSuffix(before[i], ".") || strings.HasSuffix(before[i], "!") || strings.HasSuffix(before[i], "?") {
				break
			}
			w := strings.Trim(before[i], ",;:()\"'")
			if negations[w] || strings.HasSuffix(w, "n't") {
				neg = true
				break
			}
		}
		if !neg {
			lo := max(0, loc[0]-40)
			return strings.TrimSpace(text[lo:loc[1]])
		}
	}
	return ""
}

func clipStr(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
