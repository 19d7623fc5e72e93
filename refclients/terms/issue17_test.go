package terms

// Regressions of issue #17 (over-strict verifier): each case is an Agent SoW document or card prose the SPEC or
// the terms extension accepts, which the harness refused before.

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/extconf/extconf/fixtures/sow"
	"github.com/extconf/extconf/fixtures/sow/sowdoc"
	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/sabotage"
)

// specShapeDoc is a standing proposal written exactly in the shapes of Agent SoW 0.11 §4.2 and §5 (examples copied
// from the SPEC): inputs an array, deliverables the §4.2 array, confidentiality split, ceiling an object, money in
// a non-ISO currency, client seat and starts_at absent.
const specShapeDoc = `{
 "sow": "v1", "id": "sow_k7m2q4x9w3e6r8t1", "version": 1, "ends_at": "2027-02-01T00:00:00Z",
 "language": { "id": "agent-sow-standard-language", "version": 1, "sha256": "00" },
 "parties": { "provider": { "agent": "k", "handle": "Granite.books@stonework.example", "owner": "Stonework Analytics" }, "grade": "evidence" },
 "scope": { "offerings": ["reconcile-statement"], "grade": "enforced" },
 "inputs": [ { "name": "bank-statement", "media_type": "text/csv", "when": "per_task" },
             { "name": "receipts", "kind": "shared_resource", "access": "read", "when": "standing" } ],
 "deliverables": [ { "name": "reconciliation-report", "media_type": "application/pdf" } ],
 "price": { "arrangement": "fixed_fee", "currency": "XCR", "rates": [ { "offering": "reconcile-statement", "per_task": 2500000 } ],
            "ceiling": { "amount": 40000000, "period": "month" }, "grade": "enforced" },
 "volume": { "per_hour": 2, "per_day": 8, "grade": "enforced" },
 "change_control": { "review_window_days": 7, "approval": { "formation": "agent", "amendment": "person" }, "grade": "enforced" },
 "termination": { "convenience_notice_hours": 24, "grade": "enforced" },
 "disputes": { "posture": "refund_on_failed_task", "grade": "evidence" },
 "confidentiality": { "transport": { "sealed": true, "grade": "enforced" }, "retention": { "max_days": 30, "grade": "enforced" },
                      "promises": { "no_training": true, "no_third_party_sharing": true, "no_human_reading": true, "grade": "recorded" } }
}`

func signStd(t *testing.T, doc []byte) []byte {
	t.Helper()
	key := sow.ProviderKey()
	msg, err := sowdoc.SignedBytes(doc)
	if err != nil {
		t.Fatal(err)
	}
	out, err := sowdoc.AddRecord(doc, sowdoc.Record{Role: "provider", Key: sow.ProviderPublicKeyNkey(), SignedAt: "2026-08-04T14:02:11Z",
		Sig: base64.StdEncoding.EncodeToString(ed25519.Sign(key, msg))})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestSpecShapedProposalIsComplete(t *testing.T) {
	doc := signStd(t, []byte(specShapeDoc))
	m, err := ParseProposal(doc)
	if err != nil {
		t.Fatal(err)
	}
	if p := CompletenessProblems(m); len(p) > 0 {
		t.Errorf("the SPEC's own shape is refused: %v", p)
	}
	if p := StandingProblems(m); len(p) > 0 {
		t.Errorf("client seat and starts_at absent are refused: %v", p)
	}
	if err := VerifyProviderSignature(doc); err != nil {
		t.Errorf("a standard-base64 sig (§6 writes \"<base64>\") is refused: %v", err)
	}
	// The §5.4 object form of deliverables is accepted too.
	var obj map[string]any
	_ = json.Unmarshal(doc, &obj)
	obj["deliverables"] = map[string]any{"per_task": []any{}, "interim": []any{}, "grade": "enforced"}
	if p := CompletenessProblems(obj); len(p) > 0 {
		t.Errorf("§5.4 deliverables object refused: %v", p)
	}
}

func TestCompletenessStillRefuses(t *testing.T) {
	for name, edit := range map[string]func(m map[string]any){
		"merged confidentiality": func(m map[string]any) {
			m["confidentiality"] = map[string]any{"retention_days": 30, "grade": "evidence"}
		},
		"no language":      func(m map[string]any) { delete(m, "language") },
		"parties ungraded": func(m map[string]any) { delete(m["parties"].(map[string]any), "grade") },
		"sub-clause ungraded": func(m map[string]any) {
			delete(m["confidentiality"].(map[string]any)["retention"].(map[string]any), "grade")
		},
	} {
		var m map[string]any
		_ = json.Unmarshal([]byte(specShapeDoc), &m)
		edit(m)
		if len(CompletenessProblems(m)) == 0 {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestUnsupportedKeyIsNotInvalid(t *testing.T) {
	doc, err := sowdoc.AddRecord([]byte(specShapeDoc), sowdoc.Record{Role: "provider",
		Key: map[string]any{"kty": "EC", "crv": "P-256", "x": "AA", "y": "AA"}, SignedAt: "2026-08-04T14:02:11Z", Sig: "AAAA"})
	if err != nil {
		t.Fatal(err)
	}
	err = VerifyProviderSignature(doc)
	if !errors.Is(err, ErrKeyUnsupported) || !errors.Is(err, ErrSignatureInvalid) {
		t.Errorf("an EC key: %v (want ErrKeyUnsupported, still failing the consumer)", err)
	}
	// A supported signature beside an unsupported one verifies.
	if err := VerifyProviderSignature(signStd(t, doc)); err != nil {
		t.Errorf("nkey signature beside an EC record: %v", err)
	}
}

func TestPriceHeuristics(t *testing.T) {
	card := &a2a.AgentCard{Description: "Renders 1080p previews. Feel free to ask. Error-free exports. Free to cancel.",
		Skills: []a2a.AgentSkill{{ID: "x", Description: "Statements cost 99p each. It is free."}}}
	got := CardPriceClaims(card)
	if len(got) != 2 || !hasReading(got[:1], "GBP 99") || !got[1].NoCharge {
		t.Errorf("claims %+v: want only 99p and \"It is free\"", got)
	}
	// XCR (the SPEC's example currency) has no ISO 4217 minor unit: without a stated scale nothing is compared.
	price := map[string]any{"currency": "XCR", "rates": []any{map[string]any{"per_task": json.Number("2500000")}},
		"ceiling": map[string]any{"amount": json.Number("40000000"), "period": "month"}}
	doc := map[string]any{"price": price}
	xcr := func(s string) PriceClaim { return PriceClaim{Currencies: []string{"XCR"}, Readings: ParseAmount(s)} }
	if b := PriceBacked(xcr("2.50"), []map[string]any{doc}); b.Backed || b.Undecided == "" {
		t.Errorf("XCR 2.50 with no scale: %+v, want undecided", b)
	}
	price["exponent"] = json.Number("6")
	if !PriceBacked(xcr("2.50"), []map[string]any{doc}).Backed || !PriceBacked(xcr("40"), []map[string]any{doc}).Backed {
		t.Error("a stated exponent 6: XCR 2.50 / 40 are not backed by 2500000 / 40000000")
	}
	price["exponent"] = json.Number("2")
	if PriceBacked(xcr("2.50"), []map[string]any{doc}).Backed {
		t.Error("a stated exponent 2 still matches 2.50 against 2500000")
	}
	if !strings.Contains(AcceptedSowKeyEncodings, "standard base64") {
		t.Error("the accepted encodings do not say standard base64")
	}
}

// TestVerifyProposalHasFourSteps: terms §6 verifies in four steps (fetch/parse, canonicalize, digest, provider
// signature). A signed, committed document that is not a standing proposal (client seat filled) or is shaped as
// the SPEC shapes it passes the consumer's verification; §3 rule 5 is the publisher's rows' business.
func TestVerifyProposalHasFourSteps(t *testing.T) {
	rec, _ := sow.ByName("reconcile-statement")
	filled, err := sowdoc.Edit(rec.Doc, func(m map[string]any) {
		m["parties"].(map[string]any)["client"] = map[string]any{"owner": "Harbour Books LLP"}
		m["signatures"] = []any{}
	})
	if err != nil {
		t.Fatal(err)
	}
	filled, _ = sowdoc.Edit(filled, func(m map[string]any) { delete(m, "signatures") })
	filled, err = sowdoc.Sign(filled, sow.ProviderKey(), "provider", sow.SignedAt, sowdoc.KeyNkey)
	if err != nil {
		t.Fatal(err)
	}
	spec := signStd(t, []byte(specShapeDoc))
	base := serve(t, map[string][]byte{"/filled": filled, "/spec": spec})
	c := a2a.NewClient(a2a.Options{RootCAs: testpki.CAPool()})
	for path, doc := range map[string][]byte{"/filled": filled, "/spec": spec} {
		d, _ := ProposalDigest(doc)
		if r := VerifyProposal(context.Background(), c, Entry{URL: base + path, Digest: d}, sabotage.Set{}); !r.OK() {
			t.Errorf("%s: step %q: %v", path, r.Step, r.Err)
		}
	}
}
