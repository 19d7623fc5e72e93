package terms

// The harness's terms view (terminal and HTML): verified proposals with every clause's grade beside it (§7 rule 2),
// the §6 boundary stated, nothing worded as certification, endorsement or conduct (§7 rule 1). extconf's own
// verdicts certify conformance of a publication to the extension, never the terms or the provider.

import (
	"encoding/json"
	"fmt"
	"html"
	"slices"
	"sort"
	"strings"

	"github.com/extconf/extconf/sabotage"
)

// Boundary is the fixed sentence every terms view carries.
const Boundary = "A verified proposal is an offer, honestly attributed: the card commits to exactly these bytes and the provider signed them. " +
	"It proves nothing about conduct, and the card raises no clause's grade."

// GradeMeaning explains each Agent SoW §3 grade as the provider's claim.
var GradeMeaning = map[string]string{
	"enforced": "the provider asserts a runtime refuses violations; not demonstrated by the card",
	"evidence": "the provider asserts a signed record is kept",
	"recorded": "a promise only",
}

// termsClause is one clause line of a rendered proposal.
type termsClause struct {
	Name, Grade, Body string
}

// GradedUnit is one singly graded piece of a proposal, as Agent SoW shapes them: a clause object with its grade
// ("price"), a sub-clause of a split clause with its own ("confidentiality.retention", §5.11), or an item of an
// array clause ("inputs[0]", §5.3; Grade "" when the document grades the array as a whole or not at all).
type GradedUnit struct {
	Name, Grade string
	Members     map[string]any // the unit's members without grade (an array item that is not an object: {"value": …})
}

// GradedUnits lists the graded units of a document, clauses in Agent SoW order, then any other graded member.
func GradedUnits(doc map[string]any) []GradedUnit {
	order := append(append([]string(nil), SowClauses...), OptionalSowClauses...)
	var extra []string
	for k, v := range doc {
		if m, ok := v.(map[string]any); ok && m["grade"] != nil && !slices.Contains(order, k) {
			extra = append(extra, k)
		}
	}
	sort.Strings(extra)
	strip := func(m map[string]any) map[string]any {
		out := map[string]any{}
		for k, v := range m {
			if k != "grade" {
				out[k] = v
			}
		}
		return out
	}
	var out []GradedUnit
	for _, k := range append(order, extra...) {
		switch v := doc[k].(type) {
		case map[string]any:
			if _, graded := v["grade"]; !graded {
				var subs []string
				for sk, sv := range v {
					if sm, ok := sv.(map[string]any); ok && sm["grade"] != nil {
						subs = append(subs, sk)
					}
				}
				if len(subs) > 0 {
					sort.Strings(subs)
					rest := map[string]any{}
					for sk, sv := range v {
						if !slices.Contains(subs, sk) {
							rest[sk] = sv
						}
					}
					for _, sk := range subs {
						sm := v[sk].(map[string]any)
						g, _ := sm["grade"].(string)
						out = append(out, GradedUnit{Name: k + "." + sk, Grade: g, Members: strip(sm)})
					}
					if len(rest) > 0 {
						out = append(out, GradedUnit{Name: k, Members: rest})
					}
					continue
				}
			}
			g, _ := v["grade"].(string)
			out = append(out, GradedUnit{Name: k, Grade: g, Members: strip(v)})
		case []any:
			for i, it := range v {
				name := fmt.Sprintf("%s[%d]", k, i)
				m, ok := it.(map[string]any)
				if !ok {
					out = append(out, GradedUnit{Name: name, Members: map[string]any{"value": it}})
					continue
				}
				g, _ := m["grade"].(string)
				out = append(out, GradedUnit{Name: name, Grade: g, Members: strip(m)})
			}
		}
	}
	return out
}

// proposalClauses lists the graded units of a document as rendered lines.
func proposalClauses(doc map[string]any, viaCard bool, set sabotage.Faults) []termsClause {
	var out []termsClause
	for _, u := range GradedUnits(doc) {
		g := u.Grade
		if viaCard && sabotage.From(set).On(sabotage.TermsRenderImpliesEnforced) {
			g = "enforced"
		}
		keys := make([]string, 0, len(u.Members))
		for mk := range u.Members {
			keys = append(keys, mk)
		}
		sort.Strings(keys)
		var parts []string
		for _, mk := range keys {
			parts = append(parts, mk+"="+renderValue(u.Members[mk]))
		}
		out = append(out, termsClause{Name: u.Name, Grade: g, Body: strings.Join(parts, "; ")})
	}
	return out
}

func renderValue(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return "null"
	case []any:
		var s []string
		for _, e := range x {
			s = append(s, renderValue(e))
		}
		return strings.Join(s, ", ")
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func gradeLabel(g string, set sabotage.Faults) string {
	if sabotage.From(set).On(sabotage.TermsRenderDropsGrades) {
		return ""
	}
	if g == "" {
		g = "not stated in the document"
	}
	return "[grade: " + g + "] "
}

// RenderProposalText renders one proposal's clauses, each with its grade. viaCard says the document was reached
// through a card carrying the extension; the correct renderer's output does not depend on it.
func RenderProposalText(doc map[string]any, viaCard bool, set sabotage.Faults) string {
	var b strings.Builder
	for _, c := range proposalClauses(doc, viaCard, set) {
		fmt.Fprintf(&b, "  %s %s%s\n", c.Name, gradeLabel(c.Grade, set), c.Body)
	}
	return b.String()
}

func termsHeading(set sabotage.Faults) string {
	if sabotage.From(set).On(sabotage.TermsRenderAsCertification) {
		return "Certified terms"
	}
	return "Published terms (A2A terms extension)"
}

func proposalBadge(set sabotage.Faults) string {
	switch {
	case sabotage.From(set).On(sabotage.TermsRenderAsEndorsement):
		return " — Endorsed by extconf"
	case sabotage.From(set).On(sabotage.TermsRenderAsConductEvidence):
		return " — verified track record"
	}
	return ""
}

// RenderText is the terminal view of a consumer outcome.
func RenderText(o *Outcome, set sabotage.Faults) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n%s\n", termsHeading(set), o.View.Summary, Boundary)
	if sabotage.From(set).On(sabotage.TermsRenderDropsGrades) {
		b.WriteString("\n")
	} else {
		fmt.Fprintf(&b, "Grades: enforced = %s; evidence = %s; recorded = %s.\n\n", GradeMeaning["enforced"], GradeMeaning["evidence"], GradeMeaning["recorded"])
	}
	for _, p := range o.Proposals {
		fmt.Fprintf(&b, "Proposal %s (offering %s), digest %s%s\n", p.ID, p.Entry.Offering, p.Digest, proposalBadge(set))
		b.WriteString(RenderProposalText(p.Parsed, true, set))
	}
	if len(o.Signals) > 0 {
		b.WriteString("Entries that did not verify (they state no terms):\n")
		for _, s := range o.Signals {
			fmt.Fprintf(&b, "  %s: %s failed: %s\n", s.URL, s.Step, s.Reason)
		}
	}
	return b.String()
}

// RenderHTML is the HTML view of a consumer outcome; each clause is an <li data-clause> with its grade.
func RenderHTML(o *Outcome, set sabotage.Faults) string {
	e := html.EscapeString
	var b strings.Builder
	fmt.Fprintf(&b, "<section class=\"terms\">\n<h2>%s</h2>\n<p class=\"summary\">%s</p>\n<p class=\"boundary\">%s</p>\n",
		e(termsHeading(set)), e(o.View.Summary), e(Boundary))
	for _, p := range o.Proposals {
		fmt.Fprintf(&b, "<article class=\"proposal\" data-digest=\"%s\"><h3>Proposal %s (offering %s)%s</h3>\n<ul>\n",
			e(p.Digest), e(p.ID), e(p.Entry.Offering), e(proposalBadge(set)))
		for _, c := range proposalClauses(p.Parsed, true, set) {
			grade := ""
			if !sabotage.From(set).On(sabotage.TermsRenderDropsGrades) {
				grade = fmt.Sprintf("<span class=\"grade grade-%s\" title=\"%s\">grade: %s</span> ", e(c.Grade), e(GradeMeaning[c.Grade]), e(c.Grade))
			}
			fmt.Fprintf(&b, "<li data-clause=\"%s\"><b>%s</b> %s%s</li>\n", e(c.Name), e(c.Name), grade, e(c.Body))
		}
		b.WriteString("</ul></article>\n")
	}
	if len(o.Signals) > 0 {
		b.WriteString("<div class=\"signals\"><p>Entries that did not verify (they state no terms):</p><ul>\n")
		for _, s := range o.Signals {
			fmt.Fprintf(&b, "<li>%s: %s failed: %s</li>\n", e(s.URL), e(s.Step), e(s.Reason))
		}
		b.WriteString("</ul></div>\n")
	}
	b.WriteString("</section>\n")
	return b.String()
}
