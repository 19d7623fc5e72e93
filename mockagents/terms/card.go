package terms

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/extconf/extconf/fixtures/sow"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/sabotage"
)

func (a *agent) entry(name, url string) map[string]any {
	p, _ := sow.ByName(name)
	e := map[string]any{"url": url, "digest": a.digests[name], "sow": p.ID, "offering": p.Offering}
	if a.set.On(sabotage.TermsOfferingSwapped) { // each entry labelled with the other's offering
		other := map[string]string{reconcile: categorise, categorise: reconcile}[name]
		if o, ok := sow.ByName(other); ok && other != "" {
			e["offering"] = o.Offering
		}
	}
	if name == reconcile {
		switch {
		case a.set.On(sabotage.TermsEntryURLMissing):
			delete(e, "url")
		case a.set.On(sabotage.TermsEntryDigestMissing):
			delete(e, "digest")
		case a.set.On(sabotage.TermsDigestUppercaseHex):
			e["digest"] = "sha256:" + strings.ToUpper(strings.TrimPrefix(a.digests[name], "sha256:"))
		case a.set.On(sabotage.TermsOfferingSkillName):
			e["offering"] = "Reconcile statement" // the skill's name, not its id (terms §3 rule 3, SHOULD)
		}
	}
	return e
}

// buildCard is the card for a caller: the public one (party "") or an extended one.
func (a *agent) buildCard(party string) a2a.AgentCard {
	base := a.base
	recURL, catURL := a.recURL(), a.docBase()+"/terms/"+categorise+".sow.json"
	if a.set.On(sabotage.TermsProposalOtherHost) {
		catURL = "https://proposals.unrelated.example/terms/" + categorise + ".sow.json" // not the publisher's (terms §8, SHOULD)
	}
	proposals := []any{a.entry(reconcile, recURL), a.entry(categorise, catURL)}
	if party == PartyA || (party == "" && a.set.On(sabotage.TermsDirectedProposalPublic)) ||
		(party == PartyB && a.set.On(sabotage.TermsDirectedProposalOtherParty)) {
		proposals = append(proposals, a.entry(directed, base+"/terms/restricted/"+directed+".sow.json"))
	}
	params := map[string]any{"sow_spec": SowSpec, "proposals": proposals}
	switch {
	case a.set.On(sabotage.TermsProposalsMissing):
		delete(params, "proposals")
	case a.set.On(sabotage.TermsProposalsEmpty):
		params["proposals"] = []any{}
	case a.set.On(sabotage.TermsSoWSpecMissing):
		delete(params, "sow_spec")
	}
	pb, _ := json.Marshal(params)
	price := "GBP 2.50 per statement"
	switch {
	case a.set.On(sabotage.TermsCardPriceUnbacked):
		price = "GBP 1.99 per statement"
	case a.set.On(sabotage.TermsCardPriceOffByFactor):
		price = "GBP 25 per statement"
	case a.set.On(sabotage.TermsCardPriceThousands):
		price = "GBP 1,999 per statement"
	case a.set.On(sabotage.TermsCardPricePerUnitIsCeiling):
		price = "GBP 2,500 per statement"
	}
	term, _ := a.termSpan()
	data, _ := a.dataSpan()
	desc := "Stonework reconciles bank statements against ledger exports and categorises transactions. " +
		"Customers may " + term + ". Statements are " + data + "."
	if a.opt.NoTermProse {
		desc = "Stonework reconciles bank statements against ledger exports and categorises transactions."
	}
	recDesc := "Reconciles one bank statement against a ledger export: " + price + "."
	catDesc := "Assigns each transaction of a statement to a ledger category, free of charge."
	recEx := []string{"Reconcile the March statement against the ledger export"}
	catEx := []string{"Categorise the transactions of the March statement"}
	if a.opt.AmountsNotPrices {
		catDesc += " Flags every transaction above GBP 500 for review. Splits a GBP 1,200 invoice into its VAT and net parts."
		catEx = append(catEx, "Categorise the EUR 45 taxi receipt from March", "Compute $2 + 3$")
	}
	if a.opt.CapabilitySentences {
		recDesc += " Deletes duplicate transactions before categorising. Shares a reconciliation report with your accountant on request."
		catDesc += " Cancels duplicate payment instructions before export."
	}
	return a2a.AgentCard{
		Name:                "Stonework reconciliation agent",
		Description:         desc,
		SupportedInterfaces: a.opts.CardInterfaces(base),
		Provider:            &a2a.AgentProvider{Organization: sow.ProviderOwner, URL: base},
		Version:             "1.0.0",
		Capabilities: a2a.AgentCapabilities{ExtendedAgentCard: true, Extensions: []a2a.AgentExtension{{
			URI:         URI,
			Description: "Published terms: signed Agent SoW standing proposals, committed by digest",
			Required:    a.set.On(sabotage.TermsDeclarationRequiredTrue),
			Params:      pb,
		}}},
		SecuritySchemes:    map[string]json.RawMessage{"bearer": json.RawMessage(`{"httpAuthSecurityScheme":{"scheme":"Bearer"}}`)},
		DefaultInputModes:  []string{"text/plain", "text/csv"},
		DefaultOutputModes: []string{"application/json"},
		Skills: []a2a.AgentSkill{
			{ID: reconcile, Name: "Reconcile statement", Description: recDesc,
				Tags: []string{"reconciliation", "bookkeeping"}, Examples: recEx},
			{ID: categorise, Name: "Categorise transactions", Description: catDesc,
				Tags: []string{"categorisation", "bookkeeping"}, Examples: catEx},
		},
	}
}

// docBase is the origin the public proposals are listed at.
func (a *agent) docBase() string {
	if a.opt.ThirdPartyHost {
		return a.thirdBase
	}
	return a.base
}

// recURL is the fixed-fee proposal's listed url (a versioned path after a change, unless InPlaceChange).
func (a *agent) recURL() string {
	switch {
	case a.set.On(sabotage.TermsEntryURLHTTP):
		return a.plainBase + "/terms/" + reconcile + ".sow.json"
	case a.opt.UnreachableHost:
		return "https://192.0.2.1/terms/" + reconcile + ".sow.json"
	case a.versioned() && a.rotation > 0:
		return fmt.Sprintf("%s/terms/versions/%d/%s.sow.json", a.docBase(), a.rotation+1, reconcile)
	}
	return a.docBase() + "/terms/" + reconcile + ".sow.json"
}

// signedPublicCard encodes and signs the public card. keepSigs, when set, replaces the fresh signature with the
// card's previous signatures (the not-resigned sabotage).
func (a *agent) signedPublicCard(keepSigs json.RawMessage) ([]byte, error) {
	b, err := json.Marshal(a.buildCard(""))
	if err != nil {
		return nil, err
	}
	if keepSigs != nil {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, err
		}
		m["signatures"] = keepSigs
		return json.Marshal(m)
	}
	if a.opt.UnsignedCard {
		return b, nil
	}
	if a.retired != nil {
		if b, err = a.retired.Sign(b, ""); err != nil {
			return nil, err
		}
	}
	return a.signer.Sign(b, "")
}

func (a *agent) cardFor(base string) any {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.card == nil {
		a.base = base
		card, err := a.signedPublicCard(nil)
		if err != nil {
			return map[string]any{"error": err.Error()} // never served as a valid card: the suite fails on it
		}
		a.card = card
	}
	return json.RawMessage(a.card)
}

func (a *agent) extendedCard(c *a2atest.Ctx) (any, *a2a.RPCError) {
	a.mu.Lock()
	defer a.mu.Unlock()
	party := ""
	if c.Principal != nil {
		party = c.Principal.Name
	}
	card := a.buildCard(party)
	return &card, nil
}

func (a *agent) onSend(c *a2atest.Ctx, req a2a.SendMessageRequest) a2atest.Reply {
	return a2atest.Reply{Message: &a2a.Message{Role: a2a.RoleAgent, Parts: []a2a.Part{a2a.TextPart(
		"Send a bank statement and a ledger export to reconcile. The terms are the signed standing proposals the card's terms extension lists.")}}}
}
