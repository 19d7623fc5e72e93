package harness

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Absences is embedded by a document's input type: "absent": {"<member>": "<why>"} declares a conditional
// input absent, so the rows needing it end inapplicable quoting the declaration instead of blocked. Members are
// those of the document's Needs table.
type Absences struct {
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
// a path inside documents.<id> as the document's Needs table spells it.
func (w *W) Need(member string, ok bool, reason string) {
	if ok {
		return
	}
	doc := ""
	if r, found := w.env.Catalog.Row(w.row); found {
		doc = r.Document
	}
	if d, isD := w.env.Input(doc).(absenceDeclarer); isD {
		if why, absent := d.Declared(member); absent {
			w.Absent(fmt.Sprintf("documents.%s.absent.%s: %q", doc, member, why))
		}
	}
	w.Blocked(fmt.Sprintf("documents.%s.%s is missing: %s", doc, member, reason))
}

// RowPrediction is what config check predicts for one row.
type RowPrediction struct {
	Document string
	Row      string
	Verdict  string // Blocked or Inapplicable
	Member   string // the missing (or declared absent) member, "documents.<id>.<path>"
	Why      string // Need.What, or the operator's declaration
}

// Predict reads the documents' Needs tables against cfg's sections: a row whose member (any of "a|b"
// alternatives) is given in documents.<id> is not predicted; one declared absent is inapplicable; else blocked.
// A row appears once, under its first missing member. Unused lists sections of no registered document and
// credentials no section names.
func Predict(cfgDocs map[string]json.RawMessage, docs ...Document) (preds []RowPrediction) {
	for _, d := range docs {
		n, ok := d.(Needer)
		if !ok {
			continue
		}
		var sec map[string]any
		_ = json.Unmarshal(cfgDocs[d.ID()], &sec)
		var absent map[string]any
		if a, ok := sec["absent"].(map[string]any); ok {
			absent = a
		}
		seen := map[string]bool{}
		for _, need := range n.Needs() {
			given := false
			for _, alt := range strings.Split(need.Member, "|") {
				if present(sec, alt) {
					given = true
				}
			}
			if given {
				continue
			}
			verdict, why := Blocked, need.What
			if w, ok := absent[need.Member].(string); ok {
				verdict, why = Inapplicable, w
			}
			for _, r := range need.Rows {
				if seen[r] {
					continue
				}
				seen[r] = true
				preds = append(preds, RowPrediction{Document: d.ID(), Row: r, Verdict: verdict, Member: "documents." + d.ID() + "." + need.Member, Why: why})
			}
		}
	}
	return sortPredictions(preds)
}

// present reports whether the dotted path names a non-empty value in sec.
func present(sec map[string]any, path string) bool {
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
	switch x := v.(type) {
	case nil:
		return false
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
// needs beyond its static table, e.g. the arguments of one skill), each row once; the order stays Predict's.
func WithTargetNeeds(preds []RowPrediction, needs map[string][]Need) []RowPrediction {
	seen := map[string]bool{}
	for _, p := range preds {
		seen[p.Document+" "+p.Row] = true
	}
	for doc, ns := range needs {
		for _, n := range ns {
			for _, r := range n.Rows {
				if !seen[doc+" "+r] {
					seen[doc+" "+r] = true
					preds = append(preds, RowPrediction{Document: doc, Row: r, Verdict: Blocked, Member: "documents." + doc + "." + n.Member, Why: n.What})
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
