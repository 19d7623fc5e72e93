package terms

// The reference consumer of the terms extension: what a client, catalog or user interface concludes from a card
// (§7, §8). Its rules: only verified proposals state terms; a failing entry is exactly an absent entry (plus a
// signal); absence states nothing, so it is neither free nor disqualifying; the card's prose is never terms.

import (
	"context"
	"errors"
	"slices"
	"sort"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/sabotage"
)

// Terms states of a card.
const (
	Stated   = "stated"   // at least one listed proposal verified
	Unstated = "unstated" // no extension, or no entry verified: the card is silent about terms
)

// Summaries the reference consumer uses.
const (
	SummaryNotStated = "terms not stated"
	summaryStated    = "terms stated by signed standing proposals the card commits to"
)

// KnownSowSpecs are the Agent SoW versions the harness's vocabulary was read from. Informational only: §3 rule 4
// forbids rejecting a proposal because sow_spec is unfamiliar.
var KnownSowSpecs = []string{"0.11.0-draft", "0.15.0-draft"}

// Price is one price a verified proposal states.
type Price struct {
	Offering    string `json:"offering,omitempty"`
	Arrangement string `json:"arrangement"`
	Currency    string `json:"currency,omitempty"`
	Amount      int64  `json:"amount"` // smallest unit; 0 for no_charge
	Unit        string `json:"unit,omitempty"`
	Unverified  bool   `json:"unverified,omitempty"` // only ever set by a sabotaged consumer
}

// VerifiedProposal is a listed proposal that passed every step.
type VerifiedProposal struct {
	Entry  Entry          `json:"entry"`
	Digest string         `json:"digest"`
	ID     string         `json:"id"`
	Parsed map[string]any `json:"-"`
	Prices []Price        `json:"prices"`
}

// Signal is a failed entry, surfaced (§7 rule 4, §8) but stating nothing about the terms.
type Signal struct {
	URL    string `json:"url"`
	Step   string `json:"step"`
	Reason string `json:"reason"`
}

// View is what the consumer concludes about terms; two cards that state the same terms give equal views.
type View struct {
	State   string   `json:"state"`
	Summary string   `json:"summary"`
	Usable  bool     `json:"usable"` // terms alone never make an agent unusable
	Prices  []Price  `json:"prices"`
	Digests []string `json:"digests"`
}

// Outcome is the consumer's full result for one card.
type Outcome struct {
	Declared   bool               `json:"declared"`
	SowSpec    string             `json:"sowSpec,omitempty"`
	Proposals  []VerifiedProposal `json:"proposals"`
	Signals    []Signal           `json:"signals"`
	CardClaims []PriceClaim       `json:"cardClaims,omitempty"` // what the prose says: never terms
	Results    []ProposalResult   `json:"-"`
	View       View               `json:"view"`
}

// Card runs the reference consumer over a card: every entry verified (§6), failures kept as signals only.
func Card(ctx context.Context, c *a2a.Client, card *a2a.AgentCard, set sabotage.Faults) *Outcome {
	o := &Outcome{CardClaims: CardPriceClaims(card)}
	params, err := ReadParams(card)
	switch {
	case errors.Is(err, ErrNotDeclared):
	case err != nil:
		o.Declared = true
		o.Signals = append(o.Signals, Signal{Step: "declaration", Reason: err.Error()})
	default:
		o.Declared, o.SowSpec = true, params.SowSpec
		for _, e := range params.Entries {
			var r ProposalResult
			if sabotage.From(set).On(sabotage.TermsClientRejectsUnknownSoWSpec) && !slices.Contains(KnownSowSpecs, params.SowSpec) {
				r = ProposalResult{Step: StepStanding, Err: errors.New("unknown sow_spec " + params.SowSpec)}
			} else {
				r = VerifyProposal(ctx, c, e, set)
			}
			o.Results = append(o.Results, r)
			if r.OK() {
				id, _ := r.Parsed["id"].(string)
				o.Proposals = append(o.Proposals, VerifiedProposal{Entry: e, Digest: r.Digest, ID: id, Parsed: r.Parsed, Prices: ProposalPrices(r.Parsed, e.Offering)})
				continue
			}
			o.Signals = append(o.Signals, Signal{URL: e.URL, Step: r.Step, Reason: errString(r.Err)})
			if sabotage.From(set).On(sabotage.TermsClientUsesUnverifiedDocument) && r.Parsed != nil {
				for _, p := range ProposalPrices(r.Parsed, e.Offering) {
					p.Unverified = true
					o.View.Prices = append(o.View.Prices, p)
				}
			}
		}
	}
	o.View = o.view(set)
	return o
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func (o *Outcome) view(set sabotage.Faults) View {
	v := View{State: Unstated, Summary: SummaryNotStated, Usable: true, Prices: o.View.Prices}
	for _, p := range o.Proposals {
		v.Prices = append(v.Prices, p.Prices...)
		v.Digests = append(v.Digests, p.Digest)
	}
	if len(o.Proposals) > 0 {
		v.State, v.Summary = Stated, summaryStated
	}
	switch {
	case !o.Declared && sabotage.From(set).On(sabotage.TermsClientAbsenceReadsFree):
		v.Summary = "free: no terms apply"
		v.Prices = append(v.Prices, Price{Arrangement: "no_charge"})
	case o.Declared && len(o.Proposals) == 0 && len(o.Signals) > 0 && sabotage.From(set).On(sabotage.TermsClientFailureReadsNoTermsApply):
		v.Summary = "no terms apply"
	}
	if len(o.Signals) > 0 && sabotage.From(set).On(sabotage.TermsClientRefusesAgentOnFailure) {
		v.Usable = false
	}
	sort.Strings(v.Digests)
	return v
}

// ProposalPrices reads the prices a proposal's price clause states (entryOffering names it when the rates do not).
func ProposalPrices(doc map[string]any, entryOffering string) []Price {
	p, _ := doc["price"].(map[string]any)
	if p == nil {
		return nil
	}
	arr, _ := p["arrangement"].(string)
	cur, _ := p["currency"].(string)
	offering := entryOffering
	if s, _ := doc["scope"].(map[string]any); s != nil {
		if o, _ := s["offering"].(string); o != "" {
			offering = o
		}
		if l, _ := s["offerings"].([]any); len(l) == 1 { // Agent SoW §5.2 scope.offerings
			if o, _ := l[0].(string); o != "" {
				offering = o
			}
		}
	}
	if arr == "no_charge" {
		return []Price{{Offering: offering, Arrangement: arr}}
	}
	var out []Price
	for _, list := range []string{"rates", "schedule"} {
		items, _ := p[list].([]any)
		for _, it := range items {
			m, _ := it.(map[string]any)
			off, _ := m["offering"].(string)
			if off == "" {
				off = offering
			}
			for k, v := range m {
				if len(k) > 4 && k[:4] == "per_" {
					if n, ok := v.(interface{ Int64() (int64, error) }); ok {
						if a, err := n.Int64(); err == nil {
							out = append(out, Price{Offering: off, Arrangement: arr, Currency: cur, Amount: a, Unit: "per " + k[4:]})
						}
					}
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Offering+out[i].Unit < out[j].Offering+out[j].Unit })
	return out
}

// MayEngage is the reference consumer's engage gate (§8 stale pointer): true only when a verified proposal prices
// offering. The card's prose is never an input.
func MayEngage(o *Outcome, offering string, set sabotage.Faults) bool {
	for _, p := range o.Proposals {
		for _, pr := range p.Prices {
			if pr.Offering == offering {
				return true
			}
		}
	}
	return sabotage.From(set).On(sabotage.TermsClientEngagesOnCardSummary) && len(o.CardClaims) > 0
}

// Listing is one agent in a catalog.
type Listing struct {
	Name    string
	Outcome *Outcome
}

// Ranking is a catalog ordered by price. Agents whose terms are not stated are kept apart: absence is not a
// price, neither the lowest nor the highest (§7 rule 3).
type Ranking struct {
	Priced    []Listing
	NotStated []Listing
}

// lowestPrice is the agent's lowest verified price (no_charge is 0).
func lowestPrice(o *Outcome) (int64, bool) {
	var best int64
	found := false
	for _, p := range o.Proposals {
		for _, pr := range p.Prices {
			if !found || pr.Amount < best {
				best, found = pr.Amount, true
			}
		}
	}
	return best, found
}

// RankByPrice orders agents by their lowest verified price.
func RankByPrice(ls []Listing, set sabotage.Faults) Ranking {
	type priced struct {
		l Listing
		p int64
	}
	var ps []priced
	var r Ranking
	for _, l := range ls {
		if p, ok := lowestPrice(l.Outcome); ok {
			ps = append(ps, priced{l, p})
		} else if sabotage.From(set).On(sabotage.TermsClientRanksAbsenceAsFree) && !l.Outcome.Declared {
			ps = append(ps, priced{l, 0})
		} else {
			r.NotStated = append(r.NotStated, l)
		}
	}
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].p < ps[j].p })
	for _, p := range ps {
		r.Priced = append(r.Priced, p.l)
	}
	return r
}

// NoCharge is a catalog filter: agents with a verified no_charge proposal.
func NoCharge(set sabotage.Faults) func(*Outcome) bool {
	return func(o *Outcome) bool {
		for _, p := range o.Proposals {
			for _, pr := range p.Prices {
				if pr.Arrangement == "no_charge" {
					return true
				}
			}
		}
		return sabotage.From(set).On(sabotage.TermsClientRanksAbsenceAsFree) && !o.Declared
	}
}

// Filter keeps the listings whose outcome matches pred.
func Filter(ls []Listing, pred func(*Outcome) bool) []Listing {
	var out []Listing
	for _, l := range ls {
		if pred(l.Outcome) {
			out = append(out, l)
		}
	}
	return out
}
