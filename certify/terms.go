package certify

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"

	termsfix "github.com/extconf/extconf/fixtures/terms"
	"github.com/extconf/extconf/harness/a2a"
	cc "github.com/extconf/extconf/harness/clientcert"
	vterms "github.com/extconf/extconf/refclients/terms"
)

// TermsFixtureRole prefixes the counterpart role of a terms consumer scenario: a card of the terms consumer
// fixtures (fixtures/terms), one set per scenario, instead of a reference agent.
const TermsFixtureRole = "terms.fixture:"

const teGood = "te.verify.good"

// TermsNotStated is the reason a verify-terms client gives when it accepts no proposal.
const TermsNotStated = "terms_not_stated"

// teEntries reads the proposals' digests from the card the client fetched through the proxy.
func teEntries(o *cc.Observation) ([]string, bool) {
	for _, ex := range o.Exchanges {
		if ex.Method != http.MethodGet || ex.Status != http.StatusOK {
			continue
		}
		var card a2a.AgentCard
		if json.Unmarshal(ex.RespBody, &card) != nil || card.Name == "" {
			continue
		}
		es, err := vterms.Entries(&card)
		if err != nil {
			return nil, true
		}
		var ds []string
		for _, e := range es {
			ds = append(ds, e.Digest)
		}
		return ds, true
	}
	return nil, false
}

// teFetched: the client fetched at least one proposal document (a GET other than the card).
func teFetched(o *cc.Observation) bool {
	n := 0
	for _, ex := range o.Exchanges {
		if ex.Method == http.MethodGet {
			n++
		}
	}
	return n > 1
}

var teFreeWords = regexp.MustCompile(`(?i)\bfree\b|unencumbered|no terms apply|no charge|no_charge`)

// Terms returns the terms consumer scenarios: the verify-terms action on the fixture cards.
func Terms() []cc.Scenario {
	sc := func(id, set, desc string, checks ...cc.Check) cc.Scenario {
		return cc.Scenario{ID: id, Document: "terms", Role: TermsFixtureRole + set, Action: cc.ActionVerifyTerms,
			Description: desc, Control: teGood, Checks: checks}
	}
	accepts := func(rows ...string) cc.Check {
		return cc.Check{Rows: rows, Expect: "the client accepts every entry of the card (their digests and provider signatures verify)",
			Judge: func(o *cc.Observation) cc.Judgement {
				want, ok := teEntries(o)
				if !ok || len(want) == 0 {
					return cc.Block("the client did not fetch the card through the proxy — " + o.Describe())
				}
				r := o.Reply()
				got := []string{}
				if r != nil {
					got = r.Verified
				}
				all := r != nil && r.Outcome == cc.OutcomeCompleted
				for _, d := range want {
					all = all && slices.Contains(got, d)
				}
				return cc.Judge(all, fmt.Sprintf("verified %v of %v; %s", got, want, o.Describe()), nil)
			}}
	}
	rejects := func(rows ...string) cc.Check {
		return cc.Check{Rows: rows, Expect: "the client fetches the entry's document, accepts none of the entries and reports terms not stated",
			Judge: func(o *cc.Observation) cc.Judgement {
				if !teFetched(o) {
					return cc.Block("the client fetched no proposal document: it never saw the failing one — " + o.Describe())
				}
				r := o.Reply()
				ok := r != nil && r.Outcome == cc.OutcomeRefused && len(r.Verified) == 0
				return cc.Judge(ok, o.Describe(), nil)
			}}
	}
	good := sc(teGood, termsfix.SetGood, "two signed, committed proposals: the positive control", append([]cc.Check{accepts("TE-3.4b", "TE-8.4b")}, teDisplayChecks()...)...)
	good.Control = ""
	const noExt, oneGood = "te.verify.no-extension", "te.verify.one-good"
	return []cc.Scenario{
		good,
		teRanking(),
		sc(oneGood, termsfix.SetOneGood, "the fixed_fee entry alone: what the two-entry card with one failing entry must read as"),
		sc("te.verify.two-one-failing", termsfix.SetTwoOneFailing, "the good fixed_fee entry plus a no_charge entry whose url answers 404", teAsAbsent(oneGood, true)),
		sc("te.verify.url-refused", termsfix.SetURLRefused, "the proposal url's port refuses connections", teAsAbsent(noExt, false)),
		sc("te.verify.non-json", termsfix.SetNonJSON, "the proposal url answers an HTML page carrying the marker", teAsAbsent(noExt, true)),
		sc("te.verify.signature-invalid", termsfix.SetSigInvalid, "the document edited after signing (cheaper, marked), its digest recomputed on the card",
			teAsAbsent(noExt, true), teNotUsed()),
		sc("te.verify.unknown-sow-spec", termsfix.SetUnknownSowSpec, "as good, sow_spec 99.0.0-unknown", accepts("TE-3.4b")),
		sc("te.verify.sow-label-mismatch", termsfix.SetSowLabelOther, "the entry's sow names another identifier", accepts("TE-8.4b")),
		sc("te.verify.id-not-rederivable", termsfix.SetIDNotDerived, "the document's id does not re-derive", accepts("TE-8.4b")),
		sc("te.verify.unsigned", termsfix.SetUnsigned, "the digest commits to an unsigned copy", rejects("TE-3.5d"), teAsAbsent(noExt, true)),
		sc("te.verify.substitute", termsfix.SetSubstitute, "a validly signed cheaper document with the same id, another digest", rejects("TE-8.2"), teAsAbsent(noExt, true), teNotUsed()),
		sc("te.verify.resigned-same-id", termsfix.SetResignedSameID, "re-signed: same id, new digest; the card keeps the old one", rejects("TE-8.4a")),
		sc("te.verify.url-404", termsfix.SetURL404, "the proposal url answers 404; the card's prose states a price", rejects("TE-8.1"), teAsAbsent(noExt, true),
			cc.Check{Rows: []string{"TE-8.1"}, Expect: "reason " + TermsNotStated + ": the card's summary alone states no terms",
				Judge: func(o *cc.Observation) cc.Judgement {
					r := o.Reply()
					return cc.Judge(r != nil && r.Reason == TermsNotStated, o.Describe(), nil)
				}}),
		sc(noExt, termsfix.SetNoExtension, "the same prose, no terms extension",
			cc.Check{Rows: []string{"TE-7.3a"}, Expect: "terms not stated (reason " + TermsNotStated + "), never free or unencumbered",
				Judge: func(o *cc.Observation) cc.Judgement {
					r := o.Reply()
					if r == nil {
						return cc.Fail(o.Describe(), nil)
					}
					b := teShown(r)
					ok := r.Outcome == cc.OutcomeRefused && r.Reason == TermsNotStated && !teFreeWords.Match(b)
					return cc.Judge(ok, strings.TrimSpace(string(b)), nil)
				}}),
	}
}

// ---- what the client shows (terms §7 rules 1, 2 and 4): the verify-terms reply's display

// Words that would present the extension as certification, endorsement or evidence of past conduct (§7 rule 1), or
// a clause as machine-enforced (§7 rule 2). A match preceded in its sentence by a negation ("not a certification",
// "grade evidence, not enforced") says the opposite and does not count.
var (
	teCertWords    = regexp.MustCompile(`(?i)certif`)
	teEndorseWords = regexp.MustCompile(`(?i)endors|approved|recommended|trusted provider`)
	teConductWords = regexp.MustCompile(`(?i)track record|proven|has honou?red|history of|past conduct`)
	teEnforcedWord = regexp.MustCompile(`(?i)enforced|guarantee|machine-enforced`)
	teNegation     = regexp.MustCompile(`(?i)\b(not|no|never|nor|neither|without)\b|n't\b`)
	teSentenceEnd  = regexp.MustCompile(`[.;:!?\n]`)
)

// teAsserted returns the first match of words in text that no negation precedes within its sentence.
func teAsserted(words *regexp.Regexp, text string) string {
	for _, m := range words.FindAllStringIndex(text, -1) {
		start := 0
		if ends := teSentenceEnd.FindAllStringIndex(text[:m[0]], -1); len(ends) > 0 {
			start = ends[len(ends)-1][1]
		}
		if !teNegation.MatchString(text[start:m[0]]) {
			return text[m[0]:m[1]]
		}
	}
	return ""
}

// teDisplay is the client's display, or why the check has nothing to judge.
func teDisplay(o *cc.Observation) (string, *cc.Judgement) {
	r := o.Reply()
	if r == nil {
		j := cc.Block("no reply — " + o.Describe())
		return "", &j
	}
	if r.Display == nil {
		j := cc.Unanswered("the client's verify-terms reply carries no display (what it would show a person): declare it to be graded on this row")
		return "", &j
	}
	return *r.Display, nil
}

// teDocs are the proposal documents the client fetched through the proxy (parsed), by digest as the card's entries
// name them; only the entries the client reports verified are returned.
func teDocs(o *cc.Observation) []map[string]any {
	r := o.Reply()
	if r == nil {
		return nil
	}
	var out []map[string]any
	for _, ex := range o.Exchanges {
		if ex.Method != http.MethodGet || ex.Status != http.StatusOK || ex.Truncated {
			continue
		}
		var doc map[string]any
		if json.Unmarshal(ex.RespBody, &doc) != nil || doc["sow"] == nil {
			continue
		}
		d, err := vterms.ProposalDigest(ex.RespBody)
		if err == nil && slices.Contains(r.Verified, d) {
			out = append(out, doc)
		}
	}
	return out
}

// teQuoted: the agent's own bytes (card, documents) already carry such a word, so a display quoting them cannot be
// told from one presenting the extension so.
func teQuoted(o *cc.Observation, words *regexp.Regexp) bool {
	for _, ex := range o.Exchanges {
		if words.Match(ex.RespBody) {
			return true
		}
	}
	return false
}

// teUnitTokens are the spellings under which a display may name a graded unit: its full name
// ("confidentiality.retention", "deliverables[0]"), the split clause's member ("retention"), the array's name
// ("deliverables").
func teUnitTokens(name string) []string {
	toks := []string{name}
	if i := strings.LastIndex(name, "."); i >= 0 {
		toks = append(toks, name[i+1:])
	}
	if i := strings.Index(name, "["); i >= 0 {
		toks = append(toks, name[:i])
	}
	return toks
}

// teLinesNaming are the display's lines (each with the line after it, for layouts that put a grade under its
// clause) that name the unit as a token.
func teLinesNaming(display, name string) (lines, windows []string) {
	ls := strings.Split(display, "\n")
	for i, l := range ls {
		for _, tok := range teUnitTokens(name) {
			if regexp.MustCompile(`(^|[^A-Za-z0-9_.\[\]])` + regexp.QuoteMeta(tok) + `($|[^A-Za-z0-9_\[])`).MatchString(l) {
				w := l
				if i+1 < len(ls) {
					w += "\n" + ls[i+1]
				}
				lines, windows = append(lines, l), append(windows, w)
				break
			}
		}
	}
	return lines, windows
}

func teWordIn(word, text string) bool {
	return regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(word) + `\b`).MatchString(text)
}

// TermsDisplay are the checks of the good card's display: §7 rule 1 (the wording) and rule 2 (every clause with
// its own grade, none implied machine-enforced).
func teDisplayChecks() []cc.Check {
	wording := func(row string, words *regexp.Regexp, what string) cc.Check {
		return cc.Check{Rows: []string{row}, Expect: "the display presents nothing as " + what + " (terms §7 rule 1; a negated mention does not count)",
			Judge: func(o *cc.Observation) cc.Judgement {
				d, j := teDisplay(o)
				if j != nil {
					return *j
				}
				if strings.TrimSpace(d) == "" {
					return cc.Block("positive control failed: the display of a card with two verified proposals is empty")
				}
				if teQuoted(o, words) {
					return cc.Block("the agent's own card or documents carry such a word: quoting them cannot be told from presenting")
				}
				w := teAsserted(words, d)
				return cc.Judge(w == "", fmt.Sprintf("found %q in the display:\n%s", w, d), nil)
			}}
	}
	var units func(o *cc.Observation) ([]vterms.GradedUnit, *cc.Judgement)
	// shown is the display and the graded clauses it must show, or the judgement ending the check first.
	shown := func(o *cc.Observation) (string, []vterms.GradedUnit, *cc.Judgement) {
		d, j := teDisplay(o)
		if j != nil {
			return "", nil, j
		}
		us, j := units(o)
		return d, us, j
	}
	units = func(o *cc.Observation) ([]vterms.GradedUnit, *cc.Judgement) {
		docs := teDocs(o)
		if len(docs) == 0 {
			j := cc.Block("positive control failed: the client reports no verified proposal of the good card — " + o.Describe())
			return nil, &j
		}
		var us []vterms.GradedUnit
		for _, doc := range docs {
			for _, u := range vterms.GradedUnits(doc) {
				if u.Grade != "" { // the document grades this unit nowhere: nothing to show
					us = append(us, u)
				}
			}
		}
		return us, nil
	}
	return []cc.Check{
		wording("TE-7.1a", teCertWords, "certification"),
		wording("TE-7.1b", teEndorseWords, "endorsement"),
		wording("TE-7.1c", teConductWords, "evidence of past conduct"),
		{Rows: []string{"TE-7.2a"}, Expect: "every graded clause of each verified proposal is named in the display with its own grade on its line (or the next)",
			Judge: func(o *cc.Observation) cc.Judgement {
				d, us, j := shown(o)
				if j != nil {
					return *j
				}
				for _, u := range us {
					_, ws := teLinesNaming(d, u.Name)
					ok := false
					for _, w := range ws {
						ok = ok || teWordIn(u.Grade, w)
					}
					if !ok {
						return cc.Fail(fmt.Sprintf("clause %s (grade %s) is not shown with its grade; lines naming it: %q", u.Name, u.Grade, ws), nil)
					}
				}
				return cc.Pass(fmt.Sprintf("%d graded clauses each shown with its grade", len(us)), nil)
			}},
		{Rows: []string{"TE-7.2b"}, Expect: "no line naming a clause graded evidence or recorded labels it enforced or guaranteed (terms §7 rule 2)",
			Judge: func(o *cc.Observation) cc.Judgement {
				d, us, j := shown(o)
				if j != nil {
					return *j
				}
				n := 0
				for _, u := range us {
					if u.Grade == "enforced" {
						continue
					}
					ls, _ := teLinesNaming(d, u.Name)
					if len(ls) == 0 {
						return cc.Block(fmt.Sprintf("the display does not name clause %s (TE-7.2a judges that)", u.Name))
					}
					for _, l := range ls {
						if teLegend(l) {
							continue // a line explaining every grade ("enforced: …; evidence: …; recorded: promises only") labels no clause
						}
						if w := teAsserted(teEnforcedWord, l); w != "" {
							return cc.Fail(fmt.Sprintf("clause %s (grade %s) shown as %q: %s", u.Name, u.Grade, w, l), nil)
						}
					}
					n++
				}
				if n == 0 {
					return cc.Block("the verified proposals grade no clause evidence or recorded")
				}
				return cc.Pass(fmt.Sprintf("%d clauses graded evidence or recorded, none labelled enforced", n), nil)
			}},
	}
}

// teAsAbsent (TE-7.4a): a card whose entry fails verification reads exactly as the card without it (peer): the
// same outcome and the same verified proposals (none, or the good entry's alone); a display, when given, does not
// read the failure as "no terms apply" or free. The failure may additionally be surfaced (§7 rule 4, §8).
func teAsAbsent(peer string, mustFetch bool) cc.Check {
	return cc.Check{Rows: []string{"TE-7.4a"}, Expect: "the reply equals scenario " + peer + "'s (outcome, verified proposals); no display reading the failure as free or no terms apply",
		Judge: func(o *cc.Observation) cc.Judgement {
			if mustFetch && !teFetched(o) {
				return cc.Block("the client fetched no proposal document: it never saw the failing one — " + o.Describe())
			}
			p := o.Peer(peer)
			if p == nil || p.Reply() == nil {
				return cc.Block("scenario " + peer + " gave no reply to compare with")
			}
			r, pr := o.Reply(), p.Reply()
			if pr.Outcome == cc.OutcomeCompleted && len(pr.Verified) == 0 || pr.Outcome != cc.OutcomeCompleted && p.Scenario != nil && strings.HasSuffix(p.Scenario.Role, termsfix.SetOneGood) {
				return cc.Block("positive control failed: the client accepts the good entry alone — " + p.Describe())
			}
			if r == nil {
				return cc.Fail("no reply — "+o.Describe(), nil)
			}
			a, b := append([]string{}, r.Verified...), append([]string{}, pr.Verified...)
			slices.Sort(a)
			slices.Sort(b)
			if r.Outcome != pr.Outcome || !slices.Equal(a, b) {
				return cc.Fail(fmt.Sprintf("outcome %q verified %v; the card without the failing entry: outcome %q verified %v", r.Outcome, a, pr.Outcome, b), nil)
			}
			if r.Display != nil {
				if w := teAsserted(teFreeWords, *r.Display); w != "" {
					return cc.Fail(fmt.Sprintf("the display reads the failure as %q:\n%s", w, *r.Display), nil)
				}
			}
			return cc.Pass(fmt.Sprintf("outcome %q verified %v, as without the entry", r.Outcome, a), nil)
		}}
}

// teNotUsed (TE-7.4b): nothing of the fetched-but-unverified document (its marker) appears in what the client
// reports or shows, and it is not accepted.
func teNotUsed() cc.Check {
	return cc.Check{Rows: []string{"TE-7.4b"}, Expect: "the unverified document's marker " + termsfix.Marker + " appears nowhere in the reply or its display, and no proposal is accepted",
		Judge: func(o *cc.Observation) cc.Judgement {
			d, j := teDisplay(o)
			if j != nil {
				return *j
			}
			if !teFetched(o) || !teQuoted(o, regexp.MustCompile(regexp.QuoteMeta(termsfix.Marker))) {
				return cc.Block("the client did not fetch the unverified document carrying the marker — " + o.Describe())
			}
			b := teShown(o.Reply())
			ok := !strings.Contains(string(b), termsfix.Marker) && len(o.Reply().Verified) == 0
			return cc.Judge(ok, fmt.Sprintf("verified %v; display:\n%s", o.Reply().Verified, d), nil)
		}}
}

// teRanking (TE-7.3b): a catalog of three agents — one without the extension, one priced, one no_charge — ranked
// and filtered by the client (EXTCONF_CARD_URLS, the reply's ranking). The agent without the extension must not
// match the no-charge filter, nor rank ahead of an agent with verified terms (§7 rule 3: absence is no negative
// assertion, so neither "free" nor the cheapest); keeping it apart or last is the client's choice.
func teRanking() cc.Scenario {
	card := func(set string) string { return "{proxy}/" + set + "/agent-card.json" }
	cards, _ := json.Marshal([]string{card(termsfix.SetNoExtension), card(termsfix.SetOneGood), card(termsfix.SetFreeOnly)})
	is := func(name, set string) bool { return strings.HasSuffix(name, "/"+set+"/agent-card.json") }
	return cc.Scenario{ID: "te.rank.catalog", Document: "terms", Role: TermsFixtureRole + termsfix.SetOneGood, Action: cc.ActionVerifyTerms,
		Env: map[string]string{cc.EnvCardURLs: string(cards)}, Control: teGood,
		Description: "a catalog of three cards (no extension, a priced proposal, a no_charge proposal) the client ranks by price and filters for no charge",
		Checks: []cc.Check{{Rows: []string{"TE-7.3b"}, Expect: "the agent without the extension is not matched by the no-charge filter and does not rank ahead of an agent with verified terms",
			Judge: func(o *cc.Observation) cc.Judgement {
				r := o.Reply()
				switch {
				case r == nil:
					return cc.Block("no reply — " + o.Describe())
				case r.Ranking == nil:
					return cc.Unanswered("the client's verify-terms reply carries no ranking of the cards in " + cc.EnvCardURLs)
				}
				rk := r.Ranking
				seen := fmt.Sprintf("by price %v, not stated %v, no charge %v", rk.ByPrice, rk.NotStated, rk.NoCharge)
				first := -1 // the first agent with verified terms in the ranking
				for i, n := range rk.ByPrice {
					if first < 0 && (is(n, termsfix.SetOneGood) || is(n, termsfix.SetFreeOnly)) {
						first = i
					}
				}
				if first < 0 {
					return cc.Block("positive control failed: the client ranks the agents with verified terms — " + seen)
				}
				for _, n := range rk.NoCharge {
					if is(n, termsfix.SetNoExtension) {
						return cc.Fail("the no-charge filter matches the agent without the extension: "+seen, nil)
					}
				}
				for i, n := range rk.ByPrice {
					if is(n, termsfix.SetNoExtension) && i < first {
						return cc.Fail("the agent without the extension ranks ahead of the agents with verified terms: "+seen, nil)
					}
				}
				return cc.Pass(seen, nil)
			}}}}
}

// teShown is the reply as graded for wording: every member but report, which is the client's free-form diagnostic
// record (it may name a sabotage toggle, quote a failure), not what it states or shows.
func teShown(r *cc.Reply) []byte {
	c := *r
	c.Report = nil
	b, _ := json.Marshal(c)
	return b
}

// teLegend: a line naming every grade explains the grades (a legend), it does not label one clause; a line naming
// a clause with its grade and "enforced" besides is no legend.
func teLegend(line string) bool {
	n := 0
	for _, g := range vterms.SowGrades {
		if teWordIn(g, line) {
			n++
		}
	}
	return n == len(vterms.SowGrades)
}
