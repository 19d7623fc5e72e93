package terms

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"

	"github.com/extconf/extconf/fixtures/sow"
	"github.com/extconf/extconf/fixtures/sow/sowdoc"
	"github.com/extconf/extconf/sabotage"
)

// prepareDocs sets what each url serves and what the card commits to, applying the document sabotages.
func (a *agent) prepareDocs() error {
	a.served, a.digests = map[string][]byte{}, map[string]string{}
	key := sow.ProviderKey()
	for _, p := range sow.Proposals() {
		doc := p.Doc
		var err error
		if doc, err = a.latitudeDoc(doc, key); err != nil {
			return err
		}
		if p.Name == reconcile {
			if doc, err = a.breakReconcile(doc); err != nil {
				return err
			}
		}
		a.served[p.Name] = doc
		d, err := sowdoc.Digest(doc)
		if err != nil {
			return err
		}
		a.digests[p.Name] = d
	}
	// Sabotages of the commitment: what the url serves differs from what the card's digest names.
	rec, _ := sow.ByName(reconcile)
	switch {
	case a.set.On(sabotage.TermsURLServesOtherProposal):
		a.served[reconcile] = a.served[categorise]
	case a.set.On(sabotage.TermsProposalChangedCardStale):
		doc, err := sowdoc.Resign(rec.Doc, key, "2026-08-20T09:00:00Z", sowdoc.KeyNkey)
		if err != nil {
			return err
		}
		a.served[reconcile] = doc
	case a.set.On(sabotage.TermsDigestOverSignedBytes):
		b, err := sowdoc.SignedBytes(a.served[reconcile])
		if err != nil {
			return err
		}
		a.digests[reconcile] = sha256Digest(b)
	case a.set.On(sabotage.TermsDigestOverRawBytes):
		b, err := sowdoc.Reformat(a.served[reconcile])
		if err != nil {
			return err
		}
		a.digests[reconcile] = sha256Digest(b)
	}
	return nil
}

// latitudeDoc re-signs a fixture in the shape an option asks for (the provider signs again: never a hand edit).
func (a *agent) latitudeDoc(doc []byte, key ed25519.PrivateKey) ([]byte, error) {
	if !a.opt.ClientSeatAbsent && !a.opt.StdBase64Sig {
		return doc, nil
	}
	form := sowdoc.KeyFormOf(doc)
	b, err := sowdoc.Edit(doc, func(m map[string]any) {
		m["signatures"] = []any{}
		if a.opt.ClientSeatAbsent {
			delete(m, "starts_at")
			delete(m["parties"].(map[string]any), "client")
		}
	})
	if err != nil {
		return nil, err
	}
	b, err = sowdoc.Edit(b, func(m map[string]any) { delete(m, "signatures") })
	if err != nil {
		return nil, err
	}
	if !a.opt.StdBase64Sig {
		return sowdoc.Sign(b, key, "provider", sow.SignedAt, form)
	}
	msg, err := sowdoc.SignedBytes(b)
	if err != nil {
		return nil, err
	}
	return sowdoc.AddRecord(b, sowdoc.Record{Role: "provider", Key: sowdoc.KeyValue(key.Public().(ed25519.PublicKey), form),
		SignedAt: sow.SignedAt, Sig: base64.StdEncoding.EncodeToString(ed25519.Sign(key, msg))})
}

func sha256Digest(b []byte) string {
	s := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(s[:])
}

// breakReconcile applies the standing-proposal sabotages to the reconcile-statement document; the card's digest is
// then computed over the result, so only the targeted property breaks.
func (a *agent) breakReconcile(doc []byte) ([]byte, error) {
	k := sow.ProviderKey()
	switch {
	case a.set.On(sabotage.TermsProposalClauseMissing):
		b, err := sowdoc.Edit(doc, func(m map[string]any) { delete(m, "volume") })
		if err != nil {
			return nil, err
		}
		return sowdoc.Resign(b, k, sow.SignedAt, sowdoc.KeyNkey)
	case a.set.On(sabotage.TermsProposalLanguageMissing), a.set.On(sabotage.TermsProposalPartiesUngraded), a.set.On(sabotage.TermsProposalConfidentialityMerged):
		b, err := sowdoc.Edit(doc, func(m map[string]any) {
			switch {
			case a.set.On(sabotage.TermsProposalLanguageMissing):
				delete(m, "language")
			case a.set.On(sabotage.TermsProposalPartiesUngraded):
				delete(m["parties"].(map[string]any), "grade")
			default:
				m["confidentiality"] = map[string]any{"grade": "evidence", "retention_days": 30, "no_training": true, "sealed_transport": true}
			}
		})
		if err != nil {
			return nil, err
		}
		return sowdoc.Resign(b, k, sow.SignedAt, sowdoc.KeyNkey)
	case a.set.On(sabotage.TermsProposalUnsigned):
		return sowdoc.Edit(doc, func(m map[string]any) { m["signatures"] = []any{} })
	case a.set.On(sabotage.TermsProposalSignatureInvalid):
		return sowdoc.Edit(doc, func(m map[string]any) {
			m["price"].(map[string]any)["ceiling"] = map[string]any{"amount": 25000, "period": "month"}
		})
	case a.set.On(sabotage.TermsProposalSignedWithoutPrefix):
		b, err := sowdoc.Edit(doc, func(m map[string]any) { delete(m, "signatures") })
		if err != nil {
			return nil, err
		}
		msg, err := sowdoc.CanonicalWithout(b, "signatures")
		if err != nil {
			return nil, err
		}
		return sowdoc.SignBytes(b, k, "provider", sow.SignedAt, sowdoc.KeyNkey, msg)
	case a.set.On(sabotage.TermsProposalClientSeatFilled):
		b, err := sowdoc.Edit(doc, func(m map[string]any) {
			m["parties"].(map[string]any)["client"] = map[string]any{"owner": sow.DirectedOwner, "handle": sow.DirectedHandle}
		})
		if err != nil {
			return nil, err
		}
		return sowdoc.Resign(b, k, sow.SignedAt, sowdoc.KeyNkey)
	}
	return doc, nil
}

// Card prose. The spans are what the claim map (TE-4.1b/c) points at.
func (a *agent) termSpan() (string, int) {
	if a.set.On(sabotage.TermsCardTermUnbacked) {
		return "cancel on 7 days' notice", 7 * 24
	}
	return "cancel on 30 days' notice", 30 * 24 // termination.convenience_notice_hours (Agent SoW §5.9)
}

func (a *agent) dataSpan() (string, int) {
	if a.set.On(sabotage.TermsCardDataUseUnbacked) {
		return "retained for 1 day", 1
	}
	return "retained for 30 days", 30
}
