package terms

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"reflect"
	"regexp"
	"strings"

	"github.com/onsi/ginkgo/v2"

	termsfix "github.com/extconf/extconf/fixtures/terms"
	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	vterms "github.com/extconf/extconf/refclients/terms"
)

// bed is the consumer test bed of one spec: the fixture server and a client that trusts only the test CA and
// dials only loopback, recording into the run's transcript.
type bed struct {
	w   *harness.W
	fx  *termsfix.Server
	c   *a2a.Client
	set harness.Faults
}

func (s *state) bed(w *harness.W) *bed {
	fx, err := termsfix.Start()
	if err != nil {
		w.Blocked("the terms consumer fixture server could not start on loopback: " + err.Error())
	}
	cleanup(w, fx.Close)
	loop := func(u *url.URL) error {
		if ip := net.ParseIP(u.Hostname()); ip == nil || !ip.IsLoopback() {
			return fmt.Errorf("the consumer fixtures live on loopback only, not %s", u.Hostname())
		}
		return nil
	}
	s.e.OwnListener(fx.URL) // the harness's own fixture server: reachable whatever the target
	c := s.e.NewClient(a2a.Options{Limits: s.e.Client.Limits(), RootCAs: testpki.CAPool(), Recorder: s.e.Client.Recorder(), CheckURL: loop})
	return &bed{w: w, fx: fx, c: c, set: s.e.Sabotage}
}

// card fetches a fixture set's card through the recording client.
func (b *bed) card(set string) (*a2a.AgentCard, *a2a.Exchange) {
	card, ex, err := b.c.FetchCard(b.w.Ctx(), b.fx.CardURL(set), a2a.Call{Note: "terms consumer fixture " + set})
	if err != nil {
		b.w.Blocked(fmt.Sprintf("the fixture card %s could not be fetched: %v", set, err))
	}
	return card, ex
}

// outcome runs the reference consumer (with the run's client-side toggles) over a fixture set's card.
func (b *bed) outcome(set string) (*vterms.Outcome, *a2a.Exchange) {
	card, ex := b.card(set)
	o := vterms.Card(b.w.Ctx(), b.c, card, b.set)
	for _, r := range o.Results {
		if r.Exchange != nil {
			ex = r.Exchange
		}
	}
	return o, ex
}

// entry verifies the first entry of a fixture set's card with the reference consumer.
func (b *bed) entry(set string) (vterms.ProposalResult, vterms.Entry) {
	card, _ := b.card(set)
	es, err := vterms.Entries(card)
	if err != nil || len(es) == 0 {
		b.w.Blocked(fmt.Sprintf("fixture %s lists no entry: %v", set, err))
	}
	return vterms.VerifyProposal(b.w.Ctx(), b.c, es[0], b.set), es[0]
}

func viewJSON(o *vterms.Outcome) string {
	v, _ := json.Marshal(o.View)
	return string(v)
}

func stepOf(r vterms.ProposalResult) string {
	if r.OK() {
		return "verified"
	}
	return fmt.Sprintf("failed at %s: %v", r.Step, r.Err)
}

var (
	certWords    = regexp.MustCompile(`(?i)certif`)
	endorseWords = regexp.MustCompile(`(?i)endors|approved|recommended|trusted provider`)
	conductWords = regexp.MustCompile(`(?i)track record|proven|has honou?red|history of|past conduct`)
	freeWords    = regexp.MustCompile(`(?i)\bfree\b|unencumbered|no terms apply|no charge|no_charge`)
	enforcedWord = regexp.MustCompile(`(?i)enforced|guarantee|machine-enforced`)
)

func registerConsumerSpecs(s *state) {
	e := s.e

	harness.Spec(e, "TE-3.4b", "the reference consumer does not reject a proposal because sow_spec is unfamiliar", func(w *harness.W) {
		b := s.bed(w)
		good, ex := b.outcome(termsfix.SetGood)
		w.Control(len(good.Proposals) == 2, "both entries of the familiar-sow_spec card verify", viewJSON(good), ex)
		o, ex := b.outcome(termsfix.SetUnknownSowSpec)
		w.Check(len(o.Proposals) == 2 && len(o.Signals) == 0, "both entries verify under sow_spec \"99.0.0-unknown\"",
			fmt.Sprintf("%d verified, signals %s", len(o.Proposals), jsonOf(o.Signals)), ex)
	})

	harness.Spec(e, "TE-3.5d", "the reference consumer treats an unsigned document as failing verification", func(w *harness.W) {
		b := s.bed(w)
		r, _ := b.entry(termsfix.SetOneGood)
		w.Control(r.OK(), "the signed document verifies", stepOf(r), r.Exchange)
		r, _ = b.entry(termsfix.SetUnsigned)
		w.Negative(r.Step == vterms.StepSignature && errors.Is(r.Err, vterms.ErrSignatureAbsent),
			"an unsigned template committed by the right digest fails at step signature (no provider signature)", stepOf(r), r.Exchange)
		o, ex := b.outcome(termsfix.SetUnsigned)
		w.Negative(o.View.State == vterms.Unstated, "the card's terms read as not stated", viewJSON(o), ex)
	})

	render := func(w *harness.W, b *bed) (*vterms.Outcome, string, *a2a.Exchange) {
		o, ex := b.outcome(termsfix.SetGood)
		text, html := vterms.RenderText(o, b.set), vterms.RenderHTML(o, b.set)
		return o, text + "\n" + html, ex
	}
	wording := func(row string, words *regexp.Regexp, what, text string) {
		harness.Spec(e, row, text, func(w *harness.W) {
			b := s.bed(w)
			o, out, ex := render(w, b)
			listed := len(o.Proposals) == 2
			for _, p := range o.Proposals {
				listed = listed && strings.Contains(out, p.ID)
			}
			w.Control(listed && strings.Contains(out, vterms.Boundary), "the terms view lists both verified proposals and states the §6 boundary", out, ex)
			w.Negative(!words.MatchString(out), "the terms view presents nothing as "+what, fmt.Sprintf("found %q in:\n%s", words.FindString(out), out), ex)
		})
	}
	wording("TE-7.1a", certWords, "certification", "the harness's terms view does not present the extension as certification")
	wording("TE-7.1b", endorseWords, "endorsement", "the harness's terms view does not present the extension as endorsement")
	wording("TE-7.1c", conductWords, "evidence of past conduct", "the harness's terms view does not present the extension as evidence of past conduct")

	harness.Spec(e, "TE-7.2a", "the harness's terms view shows every clause with its own grade", func(w *harness.W) {
		b := s.bed(w)
		o, ex := b.outcome(termsfix.SetGood)
		w.Control(len(o.Proposals) == 2, "both proposals verify and are rendered", viewJSON(o), ex)
		text, html := vterms.RenderText(o, b.set), vterms.RenderHTML(o, b.set)
		for _, p := range o.Proposals {
			tsec := section(text, "Proposal "+p.ID, "\nProposal ")
			hsec := section(html, `data-digest="`+p.Digest+`"`, "</article>")
			for _, u := range vterms.GradedUnits(p.Parsed) {
				if u.Grade == "" {
					continue // nothing to show: the document grades this unit nowhere
				}
				k, g := u.Name, u.Grade
				line := lineOf(tsec, "  "+k+" ")
				w.Check(strings.Contains(line, fmt.Sprintf("[grade: %s]", g)), fmt.Sprintf("terminal: clause %s of %s shown with grade %s", k, p.ID, g), "line: "+line, ex)
				w.Check(strings.Contains(hsec, fmt.Sprintf(`<li data-clause="%s"><b>%s</b> <span class="grade grade-%s"`, k, k, g)),
					fmt.Sprintf("HTML: clause %s of %s shown with grade %s", k, p.ID, g), hsec, ex)
			}
		}
	})

	harness.Spec(e, "TE-7.2b", "the harness's terms view lets the card imply no machine enforcement", func(w *harness.W) {
		b := s.bed(w)
		o, ex := b.outcome(termsfix.SetGood)
		w.Control(len(o.Proposals) == 2, "both proposals verify", viewJSON(o), ex)
		for _, p := range o.Proposals {
			via, alone := vterms.RenderProposalText(p.Parsed, true, b.set), vterms.RenderProposalText(p.Parsed, false, b.set)
			w.Check(via == alone, "rendering through a card equals rendering the document alone", "through the card:\n"+via+"alone:\n"+alone, ex)
			for _, u := range vterms.GradedUnits(p.Parsed) {
				k, g := u.Name, u.Grade
				if g == "enforced" {
					continue
				}
				line := lineOf(via, "  "+k+" ")
				w.Check(!enforcedWord.MatchString(line), fmt.Sprintf("clause %s (grade %s) is not labelled enforced or guaranteed", k, g), "line: "+line, ex)
			}
		}
	})

	harness.Spec(e, "TE-7.3a", "the reference consumer reports a card without the extension as terms not stated", func(w *harness.W) {
		b := s.bed(w)
		good, ex := b.outcome(termsfix.SetGood)
		w.Control(good.View.State == vterms.Stated, "a card with verified proposals reads stated", viewJSON(good), ex)
		o, ex := b.outcome(termsfix.SetNoExtension)
		w.Negative(o.View.State == vterms.Unstated && o.View.Summary == vterms.SummaryNotStated && len(o.View.Prices) == 0 &&
			!freeWords.MatchString(viewJSON(o)+vterms.RenderText(o, b.set)),
			"state unstated, summary \"terms not stated\", no price, nothing reading free / unencumbered / no terms apply",
			viewJSON(o), ex)
	})

	harness.Spec(e, "TE-7.3b", "the reference ranking and filter do not treat an agent without the extension as free", func(w *harness.W) {
		b := s.bed(w)
		priced, _ := b.outcome(termsfix.SetOneGood)
		free, _ := b.outcome(termsfix.SetFreeOnly)
		absent, ex := b.outcome(termsfix.SetNoExtension)
		ls := []vterms.Listing{{Name: "absent", Outcome: absent}, {Name: "priced", Outcome: priced}, {Name: "no-charge", Outcome: free}}
		r := vterms.RankByPrice(ls, b.set)
		matched := names(vterms.Filter(ls, vterms.NoCharge(b.set)))
		// The fixtures are the harness's own: the reference ranking placing the verified no_charge agent first is part
		// of what this self-check requires (a ranking that puts the absent agent first fails here), so it is a Check.
		w.Check(contains(matched, "no-charge") && len(r.Priced) > 0 && r.Priced[0].Name == "no-charge",
			"the verified no_charge agent matches the no-charge filter and ranks first", fmt.Sprintf("ranked %v, not stated %v, no-charge filter %v", names(r.Priced), names(r.NotStated), matched), ex)
		w.Check(contains(names(r.NotStated), "absent") && !contains(names(r.Priced), "absent") && !contains(matched, "absent"),
			"the agent without the extension is kept apart as terms not stated: not ranked by price, not matched by the no-charge filter",
			fmt.Sprintf("ranked %v, not stated %v, no-charge filter %v", names(r.Priced), names(r.NotStated), matched), ex)
	})

	harness.Spec(e, "TE-7.4a", "the reference consumer treats a failing entry exactly as an absent one", func(w *harness.W) {
		b := s.bed(w)
		good, ex := b.outcome(termsfix.SetOneGood)
		w.Control(good.View.State == vterms.Stated, "the verifying entry gives terms stated", viewJSON(good), ex)
		absent, _ := b.outcome(termsfix.SetNoExtension)
		for _, set := range termsfix.FailingSets {
			o, ex := b.outcome(set)
			w.Check(reflect.DeepEqual(o.View, absent.View) && len(o.Signals) == 1,
				fmt.Sprintf("%s: the outcome equals the card without the entry %s, and the failure is surfaced as a signal", set, viewJSON(absent)),
				fmt.Sprintf("outcome %s, signals %s", viewJSON(o), jsonOf(o.Signals)), ex)
		}
		two, ex := b.outcome(termsfix.SetTwoOneFailing)
		w.Check(reflect.DeepEqual(two.View, good.View) && len(two.Signals) == 1,
			"a two-entry card with one failing entry reads as the card with the good entry alone: "+viewJSON(good),
			fmt.Sprintf("outcome %s, signals %s", viewJSON(two), jsonOf(two.Signals)), ex)
	})

	harness.Spec(e, "TE-7.4b", "the reference consumer never uses a fetched-but-unverified document as terms", func(w *harness.W) {
		b := s.bed(w)
		sub, _ := b.entry(termsfix.SetSubstitute)
		w.Control(sub.Parsed != nil && strings.Contains(string(sub.Doc), termsfix.Marker),
			"the failing fixture's document was fetched and carries the marker "+termsfix.Marker, stepOf(sub), sub.Exchange)
		for _, set := range []string{termsfix.SetSubstitute, termsfix.SetSigInvalid} {
			o, ex := b.outcome(set)
			out := viewJSON(o) + vterms.RenderText(o, b.set) + vterms.RenderHTML(o, b.set)
			usedPrice := false
			for _, p := range o.View.Prices {
				usedPrice = usedPrice || p.Amount == termsfix.MarkerPrice
			}
			w.Negative(!strings.Contains(out, termsfix.Marker) && !usedPrice,
				fmt.Sprintf("%s: neither the marker nor the price %d of the unverified document appears in the outcome or the rendered view", set, termsfix.MarkerPrice),
				out, ex)
		}
	})

	harness.Spec(e, "TE-8.1", "the reference consumer does not engage on the card's summary alone", func(w *harness.W) {
		b := s.bed(w)
		good, ex := b.outcome(termsfix.SetOneGood)
		w.Control(vterms.MayEngage(good, "reconcile-statement", b.set), "with the proposal verifying, the engage gate opens for reconcile-statement", viewJSON(good), ex)
		dead, ex := b.outcome(termsfix.SetURL404)
		w.Negative(len(dead.CardClaims) > 0 && !vterms.MayEngage(dead, "reconcile-statement", b.set) && dead.View.State == vterms.Unstated,
			"with the url dead the card's prose (\"GBP 2.50 per statement\") is not enough: terms unstated, the gate stays shut",
			fmt.Sprintf("card claims %s, outcome %s, may engage %v", jsonOf(dead.CardClaims), viewJSON(dead), vterms.MayEngage(dead, "reconcile-statement", b.set)), ex)
	})

	harness.Spec(e, "TE-8.2", "the reference consumer does not accept a mismatched document however plausible", func(w *harness.W) {
		b := s.bed(w)
		r, _ := b.entry(termsfix.SetOneGood)
		// "Mismatched" is judged by the canonical digest: a reference consumer that finds the committed document (a
		// harness fixture, served reformatted) mismatched computes the wrong digest, which is this self-check's failure.
		w.Check(r.OK(), "the committed document (served reformatted) verifies", stepOf(r), r.Exchange)
		r, _ = b.entry(termsfix.SetSubstitute)
		w.Check(r.Step == vterms.StepDigest && errors.Is(r.Err, vterms.ErrDigestMismatch),
			"a validly signed cheaper document with the same id but another digest fails at step digest", stepOf(r), r.Exchange)
	})

	harness.Spec(e, "TE-8.4a", "the reference consumer compares digests, not identifiers", func(w *harness.W) {
		b := s.bed(w)
		r, _ := b.entry(termsfix.SetOneGood)
		w.Control(r.OK(), "the committed document verifies", stepOf(r), r.Exchange)
		r, en := b.entry(termsfix.SetResignedSameID)
		w.Negative(r.Step == vterms.StepDigest && r.Parsed["id"] == en.Sow,
			"a re-signed copy whose id equals the entry's sow but whose digest differs fails at step digest", stepOf(r), r.Exchange)
	})

	harness.Spec(e, "TE-8.4b", "the reference consumer never uses identifiers when verifying", func(w *harness.W) {
		b := s.bed(w)
		r, _ := b.entry(termsfix.SetOneGood)
		w.Control(r.OK(), "the consistent fixture verifies", stepOf(r), r.Exchange)
		for _, set := range []string{termsfix.SetSowLabelOther, termsfix.SetIDNotDerived} {
			r, en := b.entry(set)
			minted, _ := vterms.MintSowID(r.Doc)
			w.Check(r.OK(), fmt.Sprintf("%s verifies (entry sow %s, document id %v, re-derived id %s): identifiers are labels", set, en.Sow, r.Parsed["id"], minted),
				stepOf(r), r.Exchange)
		}
	})
}

// cleanup runs f when the spec ends.
func cleanup(_ *harness.W, f func()) { ginkgo.DeferCleanup(f) }

// section is text from the first occurrence of start up to the next end (or the end of text).
func section(text, start, end string) string {
	i := strings.Index(text, start)
	if i < 0 {
		return ""
	}
	rest := text[i+len(start):]
	if j := strings.Index(rest, end); j >= 0 {
		rest = rest[:j]
	}
	return start + rest
}

func lineOf(text, prefix string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	return "(no line starting " + strings.TrimSpace(prefix) + ")"
}

func names(ls []vterms.Listing) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l.Name)
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
