package evidence

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/go-jose/go-jose/v4"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/catalog"
)

func checkCitations(c *Check, b *Bundle, exchanges map[string]exchangeLine) {
	if exchanges == nil {
		c.add("not checked: the transcript could not be read")
		return
	}
	cited := 0
	for _, r := range b.Rows {
		for _, id := range r.Exchanges {
			cited++
			if _, ok := exchanges[id]; !ok {
				c.add(fmt.Sprintf("row %s cites exchange %s, which is not in the transcript", r.ID, id))
			}
		}
	}
	for _, card := range b.Target.Cards {
		if card.Exchange == "" {
			c.add(fmt.Sprintf("target card %q (%s) names no exchange, so its digest cannot be checked", card.Role, card.URL))
			continue
		}
		ex, ok := exchanges[card.Exchange]
		if !ok {
			c.add(fmt.Sprintf("target card %q was fetched by exchange %s, which is not in the transcript", card.Role, card.Exchange))
			continue
		}
		if got := ex.bodySHA; got != card.SHA256 {
			c.add(fmt.Sprintf("target card %q digest: the bundle says %s but the card fetched by ex#%d (%s) digests to %s (the target card digest was changed)", card.Role, card.SHA256, ex.seq, ex.url, got))
		}
		if ex.url != card.URL {
			c.add(fmt.Sprintf("target card %q: the bundle says %s but ex#%d fetched %s", card.Role, card.URL, ex.seq, ex.url))
		}
	}
	if c.OK() {
		c.Notes = append(c.Notes, fmt.Sprintf("%d row citations and %d card digests match the transcript", cited, len(b.Target.Cards)))
	}
}

func checkTotals(c *Check, b *Bundle) {
	compare := func(what string, got map[string]int, rows []harness.RowVerdict) {
		totals := harness.Totals(rows)
		keys := make([]string, 0, len(totals)+len(got))
		for v := range totals {
			keys = append(keys, v)
		}
		for v := range got {
			if _, ok := totals[v]; !ok {
				keys = append(keys, v)
			}
		}
		sort.Strings(keys)
		for _, v := range keys {
			if got[v] != totals[v] {
				c.add(fmt.Sprintf("%s%s is %d in the bundle but %d rows carry it", what, v, got[v], totals[v]))
			}
		}
	}
	compare("", b.Totals, harness.RequiredRows(b.Rows))
	compare("advisory.totals.", b.Advisory.Totals, harness.AdvisoryRows(b.Rows))
	if want := AdvisoryOf(b.Rows); b.Advisory.Count != want.Count || len(b.Advisory.Findings) != want.Count {
		c.add(fmt.Sprintf("advisory.count is %d with %d findings but %d advisory rows did not pass", b.Advisory.Count, len(b.Advisory.Findings), want.Count))
	} else {
		for i, f := range want.Findings {
			if g := b.Advisory.Findings[i]; g.ID != f.ID || g.Verdict != f.Verdict || g.Document != f.Document {
				c.add(fmt.Sprintf("advisory.findings[%d] is %s %s but the rows make it %s %s", i, g.ID, g.Verdict, f.ID, f.Verdict))
			}
		}
	}
	compare("selfCheck.totals.", b.SelfCheck.Totals, harness.SelfCheckRows(b.Rows))
	sum := 0
	for _, r := range b.Rows {
		sum += r.Assertions
	}
	if sum != b.AssertionCount {
		c.add(fmt.Sprintf("assertionCount is %d but the rows' assertions add up to %d", b.AssertionCount, sum))
	}
	want, why := harness.StatusOf(b.Rows, b.Selection.Strict)
	if b.Status != want {
		c.add(fmt.Sprintf("status is %q but the rows about the target make it %q (strict %v)", b.Status, want, b.Selection.Strict))
	} else if want == harness.StatusIncomplete && b.StatusReason != why {
		// What an incomplete run says to state is the rows' own causes, not free text.
		c.add(fmt.Sprintf("statusReason is %q but the blocked rows make it %q", b.StatusReason, why))
	}
	if want := harness.SelfCheckStatus(b.Rows); b.SelfCheck.Status != want {
		c.add(fmt.Sprintf("selfCheck.status is %q but the self-check rows make it %q", b.SelfCheck.Status, want))
	}
	if c.OK() {
		note := fmt.Sprintf("totals, assertionCount (%d) and status (%s) agree with the rows about the target; advisory findings %d (strict %v); self-check %s", sum, b.Status, b.Advisory.Count, b.Selection.Strict, b.SelfCheck.Status)
		if b.StatusReason != "" {
			note += "; " + b.StatusReason
		}
		c.Notes = append(c.Notes, note)
	}
}

func checkCatalog(c *Check, b *Bundle, cat *catalog.Catalog) bool {
	if b.Catalog.Digest != cat.Digest() {
		c.Problems = append(c.Problems, fmt.Sprintf("different catalog version: the bundle was graded against catalog %s (%d rows); this harness carries %s (%d rows), so its rows cannot be checked against this catalog",
			b.Catalog.Digest, b.Catalog.Rows, cat.Digest(), len(cat.Rows)))
		return false
	}
	for _, d := range b.Documents {
		for _, f := range cat.Files {
			if f.Document == d.ID && f.TextSHA256 != "" && d.TextSHA256 != f.TextSHA256 {
				got := d.TextSHA256
				if got == "" {
					got = "none"
				}
				c.add(fmt.Sprintf("document %s: the bundle names text digest %s, this catalog quotes the text with digest %s (different document text)", d.ID, got, f.TextSHA256))
			}
		}
	}
	if c.OK() {
		c.Notes = append(c.Notes, "catalog "+cat.Digest()+" is this harness's")
	}
	return true
}

func checkRows(c *Check, b *Bundle, cat *catalog.Catalog, sameCatalog bool) {
	seen := map[string]bool{}
	for _, r := range b.Rows {
		if seen[r.ID] {
			c.add(fmt.Sprintf("row %s appears twice", r.ID))
		}
		seen[r.ID] = true
	}
	if !sameCatalog {
		if len(b.Rows) != b.Catalog.Rows {
			c.add(fmt.Sprintf("the bundle holds %d rows but names a catalog of %d rows", len(b.Rows), b.Catalog.Rows))
		} else {
			c.Notes = append(c.Notes, fmt.Sprintf("%d rows, as many as the bundle's own catalog has; not checked row by row (different catalog version)", len(b.Rows)))
		}
		return
	}
	covered := map[string]bool{}
	for _, d := range b.Selection.Documents {
		covered[d] = true
	}
	for _, card := range b.Target.Cards {
		for _, uri := range card.DeclaredExtensions {
			for _, d := range catalog.Documents {
				if d.URI == uri {
					covered[d.ID] = true
				}
			}
		}
	}
	for _, r := range b.Rows {
		row, ok := cat.Row(r.ID)
		switch {
		case !ok:
			c.add(fmt.Sprintf("row %s is not in the catalog", r.ID))
		case row.Document != r.Document:
			c.add(fmt.Sprintf("row %s says document %s, the catalog says %s", r.ID, r.Document, row.Document))
		case b.Target.Kind == TargetKindClient && r.SelfCheck:
			// a client certification: the reference-client rows are about the client under test
			c.add(fmt.Sprintf("row %s says selfCheck true in a client certification, where every row is about the client under test", r.ID))
		case b.Target.Kind != TargetKindClient && row.SelfCheck() != r.SelfCheck:
			c.add(fmt.Sprintf("row %s says selfCheck %v, the catalog says %v (witness %s)", r.ID, r.SelfCheck, row.SelfCheck(), row.Witness))
		case (row.Advisory() && !row.SelfCheck()) != r.Advisory:
			c.add(fmt.Sprintf("row %s says advisory %v, the catalog gives it level %s", r.ID, r.Advisory, row.Level))
		}
	}
	missing := 0
	for _, r := range cat.Rows {
		if !seen[r.ID] {
			missing++
			if covered[r.Document] {
				c.add(fmt.Sprintf("row %s (%s, a document the run covers) is missing from the bundle", r.ID, r.Document))
			} else {
				c.add(fmt.Sprintf("row %s (%s) is missing from the bundle", r.ID, r.Document))
			}
		}
	}
	if c.OK() {
		docs := make([]string, 0, len(covered))
		for d := range covered {
			docs = append(docs, d)
		}
		sort.Strings(docs)
		c.Notes = append(c.Notes, fmt.Sprintf("all %d catalog rows present (covered documents: %s)", len(cat.Rows), strings.Join(docs, ", ")))
	}
}

func checkFalsifiability(c *Check, b *Bundle, cat *catalog.Catalog, sameCatalog bool, o VerifyOptions) {
	f := b.Falsifiability
	if f == nil {
		c.Notes = append(c.Notes, "no falsifiability table in this bundle (run with --falsify)")
		return
	}
	if o.KnownToggle == nil {
		c.Notes = append(c.Notes, "toggle ids not checked against a sabotage registry")
	}
	killedBy := map[string]map[string]bool{} // toggle → rows it killed, per the toggle table
	for _, t := range f.Toggles {
		if o.KnownToggle != nil && !o.KnownToggle(t.ID) {
			c.add(fmt.Sprintf("toggle %q does not exist in this harness", t.ID))
		}
		killedBy[t.ID] = map[string]bool{}
		for _, id := range t.Killed {
			killedBy[t.ID][id] = true
		}
	}
	rows := make([]string, 0, len(f.Rows))
	for id := range f.Rows {
		rows = append(rows, id)
	}
	sort.Strings(rows)
	for _, id := range rows {
		if sameCatalog {
			if _, ok := cat.Row(id); !ok {
				c.add(fmt.Sprintf("row %q is not in the catalog", id))
			}
		}
		for _, t := range f.Rows[id] {
			if _, ok := killedBy[t]; !ok {
				c.add(fmt.Sprintf("row %s is said to be killed by %q, which is not in the toggle table", id, t))
			} else if !killedBy[t][id] {
				c.add(fmt.Sprintf("row %s is said to be killed by %q, whose table entry does not list it as killed", id, t))
			}
		}
	}
	var unproven []string
	for _, r := range b.Rows {
		if r.Verdict == harness.ExecutedPass && len(f.Rows[r.ID]) == 0 {
			unproven = append(unproven, r.ID)
		}
	}
	checkLatitudes(c, f, cat, sameCatalog, o)
	checkDerived(c, f.Derived, o)
	if c.OK() {
		c.Notes = append(c.Notes, fmt.Sprintf("%d toggles, all registered; %d rows killed", len(f.Toggles), len(rows)))
		if len(f.Latitudes) > 0 {
			sv, n := f.LatitudesSurvived()
			c.Notes = append(c.Notes, fmt.Sprintf("latitudes survived %d/%d", sv, n))
		}
	}
	if len(unproven) > 0 {
		c.Notes = append(c.Notes, fmt.Sprintf("%d passing rows have no toggle that killed them (their tests are not proven able to fail): %s", len(unproven), clipList(unproven, 12)))
	}
}

func checkStanding(c *Check, b *Bundle, sig SignatureCheck) {
	if b.Kind == "evidence" {
		if !sig.Signed {
			c.add("kind is evidence but the bundle is unsigned")
		} else if !sig.Valid {
			c.add("kind is evidence but the signature does not hold")
		}
		if b.Runner.Tier != "third-party" {
			c.add(fmt.Sprintf("kind is evidence but the tier is %q: a self-run is a claim", b.Runner.Tier))
		}
	}
	if b.Runner.Tier == "third-party" {
		if strings.TrimSpace(b.Runner.Name) == "" {
			c.add("tier is third-party but no runner is named")
		}
		if card, ok := ProviderRunner(b.Runner.Name, b.Target.Cards); ok {
			c.add(fmt.Sprintf("tier is third-party but the runner %q is the provider organization of the %q card: a self-run", b.Runner.Name, card.Role))
		}
		if !sig.Signed {
			c.add("tier is third-party but the bundle is unsigned: a third-party result must be signed")
		}
	}
	if c.OK() {
		c.Notes = append(c.Notes, fmt.Sprintf("kind %s, tier %s, runner %q", b.Kind, b.Runner.Tier, b.Runner.Name))
	}
}

func mustThumb(k *jose.JSONWebKey) string {
	tp, err := Thumbprint(k)
	if err != nil {
		return "(unreadable key)"
	}
	return tp
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func clipList(ids []string, n int) string {
	if len(ids) <= n {
		return strings.Join(ids, ", ")
	}
	return fmt.Sprintf("%s, … (%d more)", strings.Join(ids[:n], ", "), len(ids)-n)
}

// checkLatitudes checks the latitudes section: ids registered, documents in the catalog, no latitude listed twice,
// and "survived" consistent with what the entry says failed (a latitude that failed rows, or whose run could not be
// made, did not survive). A latitude that did not survive is reported as a note: the table records it honestly.
func checkLatitudes(c *Check, f *Falsifiability, cat *catalog.Catalog, sameCatalog bool, o VerifyOptions) {
	if len(f.Latitudes) == 0 {
		return
	}
	if o.KnownLatitude == nil {
		c.Notes = append(c.Notes, "latitude ids not checked against a registry")
	}
	seen := map[string]bool{}
	for _, l := range f.Latitudes {
		if seen[l.ID] {
			c.add(fmt.Sprintf("latitude %q is listed twice", l.ID))
		}
		seen[l.ID] = true
		if o.KnownLatitude != nil && !o.KnownLatitude(l.ID) {
			c.add(fmt.Sprintf("latitude %q does not exist in this harness", l.ID))
		}
		if strings.TrimSpace(l.Permits) == "" {
			c.add(fmt.Sprintf("latitude %q quotes nothing that permits it", l.ID))
		}
		for _, d := range l.Documents {
			if _, ok := catalog.DocumentByID(d); !ok {
				c.add(fmt.Sprintf("latitude %q: unknown document %q", l.ID, d))
			}
		}
		if want := len(l.Failed) == 0 && l.Error == ""; l.Survived != want {
			c.add(fmt.Sprintf("latitude %q says survived=%t but lists %d failed rows (error %q)", l.ID, l.Survived, len(l.Failed), l.Error))
		}
		for _, fr := range l.Failed {
			if sameCatalog {
				if r, ok := cat.Row(fr.Row); !ok {
					c.add(fmt.Sprintf("latitude %q: failed row %q is not in the catalog", l.ID, fr.Row))
				} else if !slices.Contains(l.Documents, r.Document) {
					c.add(fmt.Sprintf("latitude %q: failed row %s belongs to %s, which it did not run", l.ID, fr.Row, r.Document))
				}
			}
		}
		if !l.Survived {
			c.Notes = append(c.Notes, fmt.Sprintf("latitude %s did not survive (%d rows failed)", l.ID, len(l.Failed)))
		}
	}
}

// checkClient checks a client certification: the client is named, only reference-client rows carry a verdict
// other than skipped, and scopeStatus agrees with the scope rows' verdicts.
func checkClient(c *Check, b *Bundle, cat *catalog.Catalog, sameCatalog bool) {
	cl := b.Target.Client
	if b.Target.Kind != TargetKindClient || cl == nil {
		c.add("target.client is set exactly when target.kind is client")
		return
	}
	verdict := map[string]string{}
	for _, r := range b.Rows {
		verdict[r.ID] = r.Verdict
		if row, ok := cat.Row(r.ID); ok && sameCatalog && !row.SelfCheck() && r.Verdict != harness.Skipped {
			c.add(fmt.Sprintf("row %s is not a client row (witness %s) but reads %s in a client certification", r.ID, row.Witness, r.Verdict))
		}
	}
	want := harness.StatusPassed
	if len(cl.ScopeRows) == 0 {
		want = harness.StatusNothingGraded
	}
	for _, id := range cl.ScopeRows {
		v, ok := verdict[id]
		if !ok {
			c.add(fmt.Sprintf("scope row %s is not among the rows", id))
		}
		switch {
		case v == harness.ExecutedFail:
			want = harness.StatusFailed
		case v != harness.ExecutedPass && want != harness.StatusFailed:
			want = harness.StatusIncomplete // blocked or unasserted: no requirement broken
		}
	}
	if cl.ScopeStatus != want {
		c.add(fmt.Sprintf("target.client.scopeStatus is %q but the scope rows make it %q", cl.ScopeStatus, want))
	}
	if c.OK() {
		c.Notes = append(c.Notes, fmt.Sprintf("client %q (%s %s): %d scenarios, %d scope rows, scope %s", cl.Command, cl.Name, cl.Version, len(cl.Scenarios), len(cl.ScopeRows), cl.ScopeStatus))
	}
}
