package main

import (
	"fmt"
	"path"
	"strings"

	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/sabotage"
)

// Markers. A section starts with a line `<!-- index:begin KIND [key=value …] -->` and ends with the line
// `<!-- index:end -->`; everything between them is generated. Kinds:
//
//	counts                                  rows, witnessable rows, rows with a spec and toggles per document
//	rows document=ID [witness=W]            one line per row: row, witness, spec text, spec location, toggles,
//	                                        latitudes (and the aliases, when a row of the selection has any)
const (
	beginMarker = "<!-- index:begin"
	endMarker   = "<!-- index:end -->"
)

func rewriteSections(src []byte, file string, cat *catalog.Catalog, ix *catalog.Index) ([]byte, error) {
	lines := strings.SplitAfter(string(src), "\n")
	var b strings.Builder
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		b.WriteString(l)
		t := strings.TrimSpace(l)
		if !strings.HasPrefix(t, beginMarker) {
			continue
		}
		if !strings.HasSuffix(t, "-->") {
			return nil, fmt.Errorf("line %d: a begin marker ends with -->", i+1)
		}
		fields := strings.Fields(strings.TrimSuffix(strings.TrimPrefix(t, beginMarker), "-->"))
		if len(fields) == 0 {
			return nil, fmt.Errorf("line %d: begin marker without a kind", i+1)
		}
		args := map[string]string{}
		for _, f := range fields[1:] {
			k, v, ok := strings.Cut(f, "=")
			if !ok {
				return nil, fmt.Errorf("line %d: %q is not key=value", i+1, f)
			}
			args[k] = v
		}
		body, err := section(fields[0], args, path.Dir(file), cat, ix)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", i+1, err)
		}
		j := i + 1
		for j < len(lines) && strings.TrimSpace(lines[j]) != endMarker {
			if strings.HasPrefix(strings.TrimSpace(lines[j]), beginMarker) {
				return nil, fmt.Errorf("line %d: begin marker inside the section opened on line %d", j+1, i+1)
			}
			j++
		}
		if j == len(lines) {
			return nil, fmt.Errorf("line %d: no %s after the begin marker", i+1, endMarker)
		}
		b.WriteString(body)
		b.WriteString(lines[j])
		i = j
	}
	return []byte(b.String()), nil
}

func section(kind string, args map[string]string, dir string, cat *catalog.Catalog, ix *catalog.Index) (string, error) {
	switch kind {
	case "counts":
		if len(args) > 0 {
			return "", fmt.Errorf("counts takes no arguments")
		}
		return counts(cat, ix), nil
	case "rows":
		doc := args["document"]
		if _, ok := catalog.DocumentByID(doc); !ok {
			return "", fmt.Errorf("rows: unknown document=%q", doc)
		}
		for k := range args {
			if k != "document" && k != "witness" {
				return "", fmt.Errorf("rows: unknown argument %q", k)
			}
		}
		return rowTable(doc, args["witness"], dir, cat, ix), nil
	}
	return "", fmt.Errorf("unknown section kind %q (counts, rows)", kind)
}

func counts(cat *catalog.Catalog, ix *catalog.Index) string {
	perDoc := map[string]int{}
	for _, t := range sabotage.All() {
		perDoc[t.Document]++
	}
	var b strings.Builder
	b.WriteString("| document | id | row ids | rows | witnessable | with a spec | toggles | latitudes |\n|---|---|---|---|---|---|---|---|\n")
	var tr, tw, ts, tt int
	for _, d := range catalog.Documents {
		var n, w, s int
		for _, r := range ix.Rows {
			if r.Document != d.ID {
				continue
			}
			n++
			if r.Witness != catalog.WitnessUnwitnessable {
				w++
			}
			if len(r.Specs) > 0 {
				s++
			}
		}
		lats := 0
		for _, l := range sabotage.Latitudes() {
			if l.Applies(d.ID) {
				lats++
			}
		}
		fmt.Fprintf(&b, "| %s | `%s` | `%s-…` | %d | %d | %d | %d | %d |\n", d.Title, d.ID, d.Prefix, n, w, s, perDoc[d.ID], lats)
		tr, tw, ts, tt = tr+n, tw+w, ts+s, tt+perDoc[d.ID]
	}
	fmt.Fprintf(&b, "| total | | | %d | %d | %d | %d | %d |\n", tr, tw, ts, tt, len(sabotage.Latitudes()))
	return b.String()
}

func rowTable(doc, witness, dir string, cat *catalog.Catalog, ix *catalog.Index) string {
	var sel []catalog.IndexRow
	aliases := false
	for _, r := range ix.Rows {
		if r.Document != doc || (witness != "" && r.Witness != witness) {
			continue
		}
		sel = append(sel, r)
		if c, _ := cat.Row(r.ID); len(c.Aliases) > 0 {
			aliases = true
		}
	}
	var b strings.Builder
	b.WriteString("| row |")
	if aliases {
		b.WriteString(" alias |")
	}
	b.WriteString(" witness | spec | spec location | toggles that kill it | latitudes that must not fail it |\n|---|")
	if aliases {
		b.WriteString("---|")
	}
	b.WriteString("---|---|---|---|---|\n")
	for _, r := range sel {
		c, _ := cat.Row(r.ID)
		cells := []string{r.ID}
		if aliases {
			cells = append(cells, orDash(strings.Join(c.Aliases, ", ")))
		}
		cells = append(cells, r.Witness)
		var texts, locs []string
		for _, s := range r.Specs {
			texts = append(texts, s.Text)
			locs = append(locs, link(dir, s.Location))
		}
		spec := strings.Join(texts, "; ")
		switch {
		case spec != "":
		case !c.Witnessable():
			spec = "— (unwitnessable: " + c.Why + ")"
		default:
			spec = "**no spec found**"
		}
		cells = append(cells, spec, orDash(strings.Join(locs, ", ")), variants(r.Toggles), latitudes(r.Latitudes))
		for i := range cells {
			cells[i] = cell(cells[i])
		}
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	return b.String()
}

func variants(vs []catalog.Variant) string {
	var out []string
	for _, v := range vs {
		s := "`" + v.ID + "`"
		if v.Side == sabotage.SideClient {
			s += " *(client)*"
		}
		out = append(out, s)
	}
	return orDash(strings.Join(out, ", "))
}

// latitudes lists a row's latitudes for a README table; the cross-cutting ones (a2a.lat.*, which every row of
// their documents lists) collapse into one entry with their count.
func latitudes(vs []catalog.Variant) string {
	var out []string
	cross := 0
	for _, v := range vs {
		if strings.HasPrefix(v.ID, "a2a"+sabotage.LatitudeInfix) {
			cross++
			continue
		}
		out = append(out, "`"+v.ID+"`")
	}
	if cross > 0 {
		out = append(out, fmt.Sprintf("`a2a.lat.*` (%d)", cross))
	}
	return orDash(strings.Join(out, ", "))
}

// link is a Markdown link from a README in dir to file:line (both relative to the module root).
func link(dir, loc string) string {
	file, line, _ := strings.Cut(loc, ":")
	rel := relPath(dir, file)
	return "[" + path.Base(file) + ":" + line + "](" + rel + "#L" + line + ")"
}

func relPath(from, to string) string {
	if from == "." {
		return to
	}
	f := strings.Split(from, "/")
	t := strings.Split(to, "/")
	i := 0
	for i < len(f) && i < len(t)-1 && f[i] == t[i] {
		i++
	}
	return strings.Repeat("../", len(f)-i) + strings.Join(t[i:], "/")
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// cell keeps a table cell on one line and its pipes literal.
func cell(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.ReplaceAll(s, "|", `\|`)
}
