package terms

// Term and data-use claims (terms §4: "a term, or a data-use claim" stated by the card's prose or skill
// descriptions). A sentence is flagged only where it states something about the deal or the client's data: a modal
// or passive about cancelling, terminating, limiting, refusing, retaining, deleting, sharing; notice with a
// duration; governing law. A capability sentence ("Deletes duplicate transactions before categorising.") describes
// the work, not the deal, and is never flagged. A floor held to precision 100 % on testdata/claims; what it flags
// the operator maps to a clause, or to "none" (not a claim).

import (
	"regexp"
	"strings"

	"github.com/extconf/extconf/harness/a2a"
)

// Lexicon flags the sentences that state one kind of claim.
type Lexicon struct {
	Kind     string
	patterns []*regexp.Regexp
}

// Match reports whether the sentence states a claim of the lexicon's kind.
func (l *Lexicon) Match(sentence string) bool {
	if Capability(sentence) {
		return false
	}
	for _, p := range l.patterns {
		if p.MatchString(sentence) {
			return true
		}
	}
	return false
}

// Hits are the byte ranges of the lexicon's matches in the lowercased sentence, one per claim it may state (a
// sentence can state two: "… are deleted after 14 days and are never used to train models"); none for a
// capability sentence.
func (l *Lexicon) Hits(sentence string) [][2]int {
	if Capability(sentence) {
		return nil
	}
	low := strings.ToLower(sentence)
	var out [][2]int
	for _, p := range l.patterns {
		for _, m := range p.FindAllStringIndex(low, -1) {
			out = append(out, [2]int{m[0], m[1]})
		}
	}
	return out
}

// Covered reports whether every hit of the lexicon in sentence overlaps an occurrence of one of the spans
// (case-insensitive; an empty span covers nothing): each claim the sentence may state is mapped.
func (l *Lexicon) Covered(sentence string, spans []string) bool {
	low := strings.ToLower(sentence)
	for _, h := range l.Hits(sentence) {
		hit := false
		for _, sp := range spans {
			sp = strings.ToLower(sp)
			for from := 0; sp != "" && !hit && from <= len(low); {
				i := strings.Index(low[from:], sp)
				if i < 0 {
					break
				}
				start, end := from+i, from+i+len(sp)
				hit = start < h[1] && h[0] < end
				from = start + 1
			}
		}
		if !hit {
			return false
		}
	}
	return true
}

func lex(kind string, ps ...string) *Lexicon {
	l := &Lexicon{Kind: kind}
	for _, p := range ps {
		l.patterns = append(l.patterns, regexp.MustCompile(`(?i)`+p))
	}
	return l
}

var (
	// TermLexicon flags terms of the deal: cancellation, termination, notice, limits, refusals, liability,
	// warranty, governing law, renewal.
	TermLexicon = lex("term",
		`\b(?:may|can|could|must|shall|will)\s+(?:\w+\s+){0,2}?(?:cancel|terminate|renew|refuse|end the)\b`,
		`\b(?:is|are|be|been|being)\s+(?:\w+\s+)?(?:cancell?ed|terminated|refused|limited|capped|renewed|warranted)\b`,
		`\bnotice\b.*\b(?:\d+|one|two|three|seven|fourteen|thirty|sixty|ninety)\s*(?:-\s*)?(?:hours?|days?|weeks?|months?)\b`,
		`\b(?:\d+|one|two|three|seven|fourteen|thirty|sixty|ninety)\s*(?:-\s*)?(?:hours?|days?|weeks?|months?)['’]?\s+(?:written\s+|prior\s+)?notice\b`,
		`\bgoverned by\b|\bjurisdiction\s*:|\bcourts of\b|\blaws? of (?:england|scotland|ireland|the state|delaware|new york|[A-Z])`,
		`\bliabilit(?:y|ies)\s+(?:is|are)\b|\bliable\b`,
		`\b(?:no warranty|warrants that|warranty is|without warranty|warranties are)\b`,
		`\b(?:cancellation|termination)\s+(?:requires|takes|is|fees?|notice|charges?)\b|\bunless cancell?ed\b|\brenews?\s+(?:automatically|monthly|annually|yearly|each)\b`,
		`\brefuses\s+(?:work|requests|tasks|to|any|all|jobs)\b`,
	)
	// DataUseLexicon flags what happens to the client's data: retention, deletion, storage, processing location,
	// sharing, training, transfer.
	DataUseLexicon = lex("data-use",
		`\b(?:is|are|be|been|being|was|were)\s+(?:\w+\s+){0,2}?(?:retained|deleted|erased|stored|kept|shared|processed|used|sold|transferred|disclosed|logged|purged)\b`,
		`\bretention\s*(?::|period|of|is|policy is)|\bdata location\b|\bnever leaves?\b|\bleaves? the (?:eu|uk|us|eea|country)\b`,
		`\b(?:we|the agent|the provider|it)\s+(?:do not |don't |does not |doesn't |never |may |will |only |)(?:retain|delete|store|share|sell|use|train|keep|log|process)\b`,
		`\bstored in\b|\bprocessed in\b|\bhosted in\b`,
	)
)

// Capability: a sentence that opens with a verb in the third person describing the work ("Deletes duplicate
// transactions …", "Shares a report with …") rather than a subject the deal binds ("Statements are retained …",
// "Customers may cancel …"). Read from its first two words: a capitalised word ending in s, followed by neither a
// verb nor a modal.
func Capability(sentence string) bool {
	f := strings.Fields(sentence)
	if len(f) < 2 {
		return false
	}
	first, second := f[0], strings.ToLower(strings.Trim(f[1], ",:;"))
	if !strings.HasSuffix(first, "s") || strings.HasSuffix(first, "ss") || strings.ToUpper(first[:1]) != first[:1] {
		return false
	}
	if modalOrCopula.MatchString(sentence) {
		return false // "Documents you send are stored in …": a subject the deal binds, then its verb
	}
	switch second {
	case "are", "is", "were", "was", "may", "can", "will", "must", "shall", "should", "could", "never", "cannot",
		"do", "don't", "have", "has", "renew", "remain", "stay", "expire", "end", "leave", "require", "need", "get":
		return false
	}
	return true
}

var modalOrCopula = regexp.MustCompile(`(?i)\b(?:is|are|was|were|be|been|may|can|will|must|shall|never)\b`)

// FlaggedSentences returns the sentences of the card's description and skill descriptions the lexicon flags.
func FlaggedSentences(card *a2a.AgentCard, l *Lexicon) []ProseSpan {
	var out []ProseSpan
	for _, s := range StatingSentences(card) {
		if l.Match(s.Text) {
			out = append(out, s)
		}
	}
	return out
}
