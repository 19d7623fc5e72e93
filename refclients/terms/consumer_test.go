package terms

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/extconf/extconf/fixtures/sow"
	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/sabotage"
)

func TestCardPriceClaims(t *testing.T) {
	card := &a2a.AgentCard{Description: "Reconciliation costs GBP 2.50 per statement. Audits from £3. Categorising is free of charge; exports are 40p each.",
		Skills: []a2a.AgentSkill{{ID: "x", Description: "Takes free-text notes. 12 EUR per hour.", Examples: []string{"Reconcile for GBP 9"}}}}
	got := CardPriceClaims(card)
	want := []string{"GBP 250", "GBP 300", "", "GBP 40", "EUR 1200"}
	if len(got) != len(want) {
		t.Fatalf("claims %+v", got)
	}
	for i, w := range want {
		if (w == "") != got[i].NoCharge || (w != "" && !hasReading(got[i:i+1], w)) {
			t.Errorf("claim %d = %+v, want %q", i, got[i], w)
		}
	}
	rec, _ := sow.ByName("reconcile-statement")
	doc, _ := ParseProposal(rec.Doc)
	docs := []map[string]any{doc}
	if !PriceBacked(got[0], docs).Backed || PriceBacked(got[1], docs).Backed || PriceBacked(got[2], docs).Backed {
		t.Error("backing of GBP 2.50 / £3 / free against the fixed_fee proposal is wrong")
	}
}

// termsCardFor serves the fixture proposals and returns a card listing them.
func termsCardFor(t *testing.T, names ...string) (*a2a.AgentCard, *a2a.Client) {
	routes := map[string][]byte{}
	for _, n := range names {
		p, _ := sow.ByName(n)
		routes["/"+n] = p.Doc
	}
	base := serve(t, routes)
	var entries []string
	for _, n := range names {
		p, _ := sow.ByName(n)
		entries = append(entries, `{"url":"`+base+"/"+n+`","digest":"`+p.Digest+`","sow":"`+p.ID+`","offering":"`+p.Offering+`"}`)
	}
	card := &a2a.AgentCard{Name: "x", Capabilities: a2a.AgentCapabilities{Extensions: []a2a.AgentExtension{{URI: URI,
		Params: []byte(`{"sow_spec":"0.15.0-draft","proposals":[` + strings.Join(entries, ",") + `]}`)}}}}
	return card, a2a.NewClient(a2a.Options{RootCAs: testpki.CAPool()})
}

func TestTermsCardRankAndRender(t *testing.T) {
	ctx := context.Background()
	none := sabotage.Set{}
	card, c := termsCardFor(t, "reconcile-statement", "categorise-transactions")
	o := Card(ctx, c, card, none)
	if o.View.State != Stated || len(o.Proposals) != 2 || len(o.Signals) != 0 {
		t.Fatalf("outcome %+v", o.View)
	}
	if !MayEngage(o, "reconcile-statement", none) || MayEngage(o, "audit", none) {
		t.Error("engage gate")
	}
	absent := Card(ctx, c, &a2a.AgentCard{Name: "y", Description: "GBP 1 per task"}, none)
	if absent.View.State != Unstated || absent.View.Summary != SummaryNotStated || MayEngage(absent, "reconcile-statement", none) {
		t.Errorf("absent: %+v", absent.View)
	}
	if !MayEngage(absent, "reconcile-statement", sabotage.MustParse(sabotage.TermsClientEngagesOnCardSummary)) {
		t.Error("the sabotaged gate does not fall back to the prose")
	}
	r := RankByPrice([]Listing{{"absent", absent}, {"both", o}}, none)
	if len(r.Priced) != 1 || r.Priced[0].Name != "both" || len(r.NotStated) != 1 {
		t.Errorf("ranking %+v", r)
	}
	if len(Filter([]Listing{{"absent", absent}, {"both", o}}, NoCharge(none))) != 1 {
		t.Error("no-charge filter")
	}

	text := RenderText(o, none)
	for _, want := range []string{Boundary, "[grade: recorded]", "[grade: evidence]", "[grade: enforced]"} {
		if !strings.Contains(text, want) {
			t.Errorf("text view lacks %q:\n%s", want, text)
		}
	}
	bad := regexp.MustCompile(`(?i)certif|endors|track record`)
	if bad.MatchString(text + RenderHTML(o, none)) {
		t.Errorf("forbidden wording in the view:\n%s", text)
	}
	for id, word := range map[sabotage.ID]string{sabotage.TermsRenderAsCertification: "Certified", sabotage.TermsRenderAsEndorsement: "Endorsed", sabotage.TermsRenderAsConductEvidence: "track record"} {
		if !strings.Contains(RenderText(o, sabotage.MustParse(id)), word) {
			t.Errorf("%s does not show %q", id, word)
		}
	}
	p := o.Proposals[0].Parsed
	if RenderProposalText(p, true, none) != RenderProposalText(p, false, none) {
		t.Error("card context changes the rendering")
	}
	if strings.Contains(RenderProposalText(p, true, sabotage.MustParse(sabotage.TermsRenderDropsGrades)), "grade") {
		t.Error("drops-grades still shows grades")
	}
}
