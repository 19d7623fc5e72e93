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
	vterms "github.com/extconf/extconf/harness/verify/terms"
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
	good := sc(teGood, termsfix.SetGood, "two signed, committed proposals: the positive control", accepts("TE-3.4b", "TE-8.4b"))
	good.Control = ""
	return []cc.Scenario{
		good,
		sc("te.verify.unknown-sow-spec", termsfix.SetUnknownSowSpec, "as good, sow_spec 99.0.0-unknown", accepts("TE-3.4b")),
		sc("te.verify.sow-label-mismatch", termsfix.SetSowLabelOther, "the entry's sow names another identifier", accepts("TE-8.4b")),
		sc("te.verify.id-not-rederivable", termsfix.SetIDNotDerived, "the document's id does not re-derive", accepts("TE-8.4b")),
		sc("te.verify.unsigned", termsfix.SetUnsigned, "the digest commits to an unsigned copy", rejects("TE-3.5d")),
		sc("te.verify.substitute", termsfix.SetSubstitute, "a validly signed cheaper document with the same id, another digest", rejects("TE-8.2")),
		sc("te.verify.resigned-same-id", termsfix.SetResignedSameID, "re-signed: same id, new digest; the card keeps the old one", rejects("TE-8.4a")),
		sc("te.verify.url-404", termsfix.SetURL404, "the proposal url answers 404; the card's prose states a price", rejects("TE-8.1"),
			cc.Check{Rows: []string{"TE-8.1"}, Expect: "reason " + TermsNotStated + ": the card's summary alone states no terms",
				Judge: func(o *cc.Observation) cc.Judgement {
					r := o.Reply()
					return cc.Judge(r != nil && r.Reason == TermsNotStated, o.Describe(), nil)
				}}),
		sc("te.verify.no-extension", termsfix.SetNoExtension, "the same prose, no terms extension",
			cc.Check{Rows: []string{"TE-7.3a"}, Expect: "terms not stated (reason " + TermsNotStated + "), never free or unencumbered",
				Judge: func(o *cc.Observation) cc.Judgement {
					r := o.Reply()
					if r == nil {
						return cc.Fail(o.Describe(), nil)
					}
					b, _ := json.Marshal(r)
					ok := r.Outcome == cc.OutcomeRefused && r.Reason == TermsNotStated && !teFreeWords.Match(b)
					return cc.Judge(ok, strings.TrimSpace(string(b)), nil)
				}}),
	}
}
