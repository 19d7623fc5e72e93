package terms

import (
	"encoding/json"
	"testing"
)

// TestPriceBackedExactly: an amount backs a claim only as stated (ISO 4217 minor units unless the clause states a
// scale); a per-unit claim is never backed by a ceiling; "$" is any dollar.
func TestPriceBackedExactly(t *testing.T) {
	fixed := map[string]any{"price": map[string]any{"arrangement": "fixed_fee", "currency": "GBP",
		"rates":   []any{map[string]any{"per_task": json.Number("250")}, map[string]any{"per_task": json.Number("199900")}},
		"ceiling": map[string]any{"amount": json.Number("250000"), "period": "month"}}}
	aud := map[string]any{"price": map[string]any{"arrangement": "fixed_fee", "currency": "AUD",
		"rates": []any{map[string]any{"per_task": json.Number("450")}}}}
	docs := []map[string]any{fixed, aud}
	for _, tc := range []struct {
		sentence string
		backed   bool
	}{
		{"Costs GBP 2.50 per statement.", true},
		{"Costs GBP 25 per statement.", false},          // off by a factor of ten
		{"Costs GBP 0.25 per statement.", false},        // off by a factor of ten
		{"Costs GBP 2,500 per statement.", false},       // the ceiling prices no statement
		{"Spend is capped at GBP 2,500 a month.", true}, // the ceiling backs a stated maximum
		{"Filing costs GBP 1,999 per return.", true},
		{"Each call costs $4.50.", true}, // AUD is a dollar
		{"Each call costs €4.50.", false},
	} {
		claims := SentencePriceClaims(ProseSpan{"description", tc.sentence})
		if len(claims) != 1 {
			t.Fatalf("%q: claims %+v", tc.sentence, claims)
		}
		if b := PriceBacked(claims[0], docs); b.Backed != tc.backed {
			t.Errorf("%q: backed %v (%+v), want %v", tc.sentence, b.Backed, b, tc.backed)
		}
	}
	b := PriceBacked(SentencePriceClaims(ProseSpan{"d", "Costs GBP 25 per statement."})[0], docs)
	if b.Near == "" {
		t.Error("an amount off by a power of ten is not named in the failure")
	}
}

// TestPerCountPriceBacked: a schedule line prices one meter count at per_unit/per (Agent SoW §5.5.2), so a card
// may state the per-count price (the independent terms agent says "EUR 0.12 per source word" over
// {"per": 100, "per_unit": 1200}), exactly, even below the currency's minor unit.
func TestPerCountPriceBacked(t *testing.T) {
	words := map[string]any{"price": map[string]any{"arrangement": "time_and_materials", "currency": "EUR",
		"schedule": []any{map[string]any{"meter": "source_words", "per": json.Number("100"), "unit": "100 source words", "per_unit": json.Number("1200")}},
		"cap":      map[string]any{"amount": json.Number("150000")}, "reservation": map[string]any{"window_days": json.Number("30")}}}
	tokens := map[string]any{"price": map[string]any{"arrangement": "time_and_materials", "currency": "USD",
		"schedule": []any{map[string]any{"meter": "tokens_out", "per": json.Number("1000"), "per_unit": json.Number("200")}}}}
	docs := []map[string]any{words, tokens}
	for _, tc := range []struct {
		sentence string
		backed   bool
	}{
		{"Billed at EUR 0.12 per source word.", true},
		{"Billed at EUR 12 per 100 source words.", true}, // the line's own unit
		{"Billed at EUR 0.13 per source word.", false},
		{"Billed at EUR 1.20 per source word.", false},
		{"Output costs USD 0.002 per token.", true}, // below a cent, exactly
		{"Output costs USD 0.003 per token.", false},
		{"Capped at EUR 1,500 per engagement.", true},
	} {
		claims := SentencePriceClaims(ProseSpan{"description", tc.sentence})
		if len(claims) != 1 {
			t.Fatalf("%q: claims %+v", tc.sentence, claims)
		}
		if b := PriceBacked(claims[0], docs); b.Backed != tc.backed {
			t.Errorf("%q: backed %v (%+v), want %v", tc.sentence, b.Backed, b, tc.backed)
		}
	}
}
