package harness

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/extconf/extconf/harness/target"
)

// Absences is embedded by a document's input type: "absent": {"<member>": "<why>"} declares a conditional
// input absent, so the rows needing it end inapplicable quoting the declaration instead of blocked. Members are
// those of the document's Needs table.
type Absences struct {
	// Absent declares conditional inputs absent: {"<member>": "<why>"}, the member as the document's input table
	// spells it (docs/config/<document>.md lists them); the rows needing it read inapplicable quoting the reason.
	Absent map[string]string `json:"absent,omitempty"`
}

// Declared returns the operator's declaration that member is absent.
func (a Absences) Declared(member string) (string, bool) {
	why, ok := a.Absent[member]
	return why, ok
}

type absenceDeclarer interface {
	Declared(member string) (string, bool)
}

// Need ends the spec when ok is false: inapplicable quoting the operator's declaration when the row's document
// section declares member absent ("absent": {member: why}), else blocked with reason, naming the member. member is
// a path inside documents.<id> as the document's Needs table spells it; a combined member "a|b" is absent when it
// is declared so itself or when every part is.
func (w *W) Need(member string, ok bool, reason string) {
	if ok {
		return
	}
	doc := w.needAbsent(member)
	w.Blocked(fmt.Sprintf("documents.%s.%s is missing: %s", doc, member, reason))
}

// NeedStated is Need for a member that lives outside documents.<id> (an identifier on a named credential, a
// principal): reason, which names where to give it, is the blocked detail as written, followed by how to declare
// it absent.
func (w *W) NeedStated(member string, ok bool, reason string) {
	if ok {
		return
	}
	doc := w.needAbsent(member)
	w.Blocked(fmt.Sprintf("%s; or declare it absent: documents.%s.absent[%q] with the reason", reason, doc, member))
}

// needAbsent ends the spec inapplicable when member is declared absent; it returns the row's document id.
func (w *W) needAbsent(member string) string {
	doc := ""
	if r, found := w.env.Catalog.Row(w.row); found {
		doc = r.Document
	}
	if d, isD := w.env.Input(doc).(absenceDeclarer); isD {
		if quotes, absent := declaredAbsent(d, doc, member); absent {
			w.Absent(quotes)
		}
	}
	return doc
}

// declaredAbsent quotes the declarations that make member absent: its own, or one per part of a combined "a|b".
func declaredAbsent(d absenceDeclarer, doc, member string) (string, bool) {
	decl := func(m, why string) string { return fmt.Sprintf("documents.%s.absent.%s: %q", doc, m, why) }
	if why, ok := d.Declared(member); ok {
		return decl(member, why), true
	}
	parts := strings.Split(member, "|")
	if len(parts) < 2 {
		return "", false
	}
	var quotes []string
	for _, p := range parts {
		why, ok := d.Declared(p)
		if !ok {
			return "", false
		}
		quotes = append(quotes, decl(p, why))
	}
	return strings.Join(quotes, "; "), true
}

// RowPrediction is what config check predicts for one row.
type RowPrediction struct {
	Document string
	Row      string
	Verdict  string // Blocked or Inapplicable
	Member   string // the missing (or declared absent) member, "documents.<id>.<path>"
	Why      string // Need.What, or the operator's declaration
	Always   bool   // Need.Always: the member cannot be declared absent
}

// Predict reads the documents' Needs tables against cfg's sections: a row whose member (any of "a|b"
// alternatives) is given in documents.<id> is not predicted; one declared absent (a combined member: itself, or
// every part) is inapplicable; else blocked. A row appears once, under its first missing member. Members decided
// by Need.Given read as not given here: PredictConfig reads them from the whole configuration.
func Predict(cfgDocs map[string]json.RawMessage, docs ...Document) []RowPrediction {
	return PredictConfig(target.Config{Documents: cfgDocs}, cfgDocs, docs...)
}

// PredictConfig is Predict with the prepared configuration cfg (its credentials and principals, for members a
// Need decides with Given) and the sections secs (cfg's, or cfg's with what probing derives).
func PredictConfig(cfg target.Config, secs map[string]json.RawMessage, docs ...Document) (preds []RowPrediction) {
	for _, d := range docs {
		n, ok := d.(Needer)
		if !ok {
			continue
		}
		sec := sectionOf(secs, d.ID())
		seen := map[string]bool{}
		empty := map[string]bool{} // members whose empty value is a statement, also as a part of "a|b"
		for _, need := range n.Needs() {
			empty[need.Member] = empty[need.Member] || need.Empty
		}
		for _, need := range n.Needs() {
			if need.Derived || needGiven(cfg, sec, need, empty) {
				continue
			}
			verdict, why := Blocked, need.What
			if w, ok := absentIn(sec, need.Member); ok {
				verdict, why = Inapplicable, w
			}
			for _, r := range need.Rows {
				if seen[r] {
					continue
				}
				seen[r] = true
				preds = append(preds, RowPrediction{Document: d.ID(), Row: r, Verdict: verdict, Member: "documents." + d.ID() + "." + need.Member, Why: why, Always: need.Always})
			}
		}
	}
	return sortPredictions(preds)
}

func sectionOf(secs map[string]json.RawMessage, id string) map[string]any {
	var sec map[string]any
	_ = json.Unmarshal(secs[id], &sec)
	return sec
}

func needGiven(cfg target.Config, sec map[string]any, need Need, empty map[string]bool) bool {
	if need.Given != nil {
		return need.Given(cfg)
	}
	for _, alt := range strings.Split(need.Member, "|") {
		if present(sec, alt, need.Empty || empty[alt]) {
			return true
		}
	}
	return false
}

// absentIn returns the declaration that makes member absent in the section: its own, or every part's.
func absentIn(sec map[string]any, member string) (string, bool) {
	absent, _ := sec["absent"].(map[string]any)
	if w, ok := absent[member].(string); ok {
		return w, true
	}
	parts := strings.Split(member, "|")
	if len(parts) < 2 {
		return "", false
	}
	var whys []string
	for _, p := range parts {
		w, ok := absent[p].(string)
		if !ok {
			return "", false
		}
		whys = append(whys, w)
	}
	return strings.Join(whys, "; "), true
}

// present reports whether the dotted path names a non-empty value in sec (or, with empty, any value but null).
func present(sec map[string]any, path string, empty bool) bool {
	var v any = sec
	for _, p := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return false
		}
		if v, ok = m[p]; !ok {
			return false
		}
	}
	switch v.(type) {
	case nil:
		return false
	case []any, map[string]any:
		if empty {
			return true
		}
	}
	switch x := v.(type) {
	case string:
		return x != ""
	case []any:
		return len(x) > 0
	case map[string]any:
		return len(x) > 0
	}
	return true
}

// AbsentMembers lists the members declared absent.
func (a Absences) AbsentMembers() []string {
	out := make([]string, 0, len(a.Absent))
	for k := range a.Absent {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// checkAbsences refuses an "absent" member no row of the document's Needs table names (exit 2, by path).
func checkAbsences(id string, in any, d Document) error {
	a, ok := in.(interface{ AbsentMembers() []string })
	if !ok {
		return nil
	}
	known := map[string]bool{}
	always := map[string]string{}
	var names []string
	if n, ok := d.(Needer); ok {
		for _, need := range n.Needs() {
			if need.Always {
				always[need.Member] = need.What
				continue
			}
			if !known[need.Member] {
				names = append(names, need.Member)
			}
			known[need.Member] = true
		}
		// A part of a combined member ("a|b") may be declared on its own: the row is absent when every part is.
		for _, need := range n.Needs() {
			if need.Always {
				continue
			}
			for _, p := range strings.Split(need.Member, "|") {
				if !known[p] {
					known[p] = true
					names = append(names, p)
				}
			}
		}
	}
	for _, m := range a.AbsentMembers() {
		if what, ok := always[m]; ok {
			return fmt.Errorf("$.documents.%s.absent.%s: every target has %s, so the rows it unblocks apply; give it, or leave them blocked", id, m, what)
		}
		if !known[m] {
			return fmt.Errorf("unknown member %q at $.documents.%s.absent (a conditional input of %s: %s)", m, id, id, strings.Join(names, ", "))
		}
	}
	return nil
}

// WithTargetNeeds adds to preds the rows blocked on inputs documents found they need for this target (document id →
// needs beyond its static table, e.g. the arguments of one skill), each row once, inapplicable where secs (the
// sections predicted) declare the member absent; the order stays Predict's.
func WithTargetNeeds(preds []RowPrediction, needs map[string][]Need, secs map[string]json.RawMessage) []RowPrediction {
	seen := map[string]bool{}
	for _, p := range preds {
		seen[p.Document+" "+p.Row] = true
	}
	for doc, ns := range needs {
		sec := sectionOf(secs, doc)
		for _, n := range ns {
			verdict, why := Blocked, n.What
			if w, ok := absentIn(sec, n.Member); ok {
				verdict, why = Inapplicable, w
			}
			for _, r := range n.Rows {
				if !seen[doc+" "+r] {
					seen[doc+" "+r] = true
					preds = append(preds, RowPrediction{Document: doc, Row: r, Verdict: verdict, Member: "documents." + doc + "." + n.Member, Why: why, Always: n.Always})
				}
			}
		}
	}
	return sortPredictions(preds)
}

// sortPredictions orders predictions by document, then row.
func sortPredictions(preds []RowPrediction) []RowPrediction {
	sort.SliceStable(preds, func(i, j int) bool {
		if preds[i].Document != preds[j].Document {
			return preds[i].Document < preds[j].Document
		}
		return preds[i].Row < preds[j].Row
	})
	return preds
}
