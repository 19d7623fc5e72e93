package sabotage

import (
	"slices"
	"sort"
	"strings"
)

// A Latitude is the mirror of a toggle: a switch on a reference agent (or a stand-in) that makes a different
// choice the document permits — takes or declines a MAY, does not follow a SHOULD, uses a shape the document leaves
// open or an encoding the cited specification allows. With it on, no row of its documents may read executed-fail
// or not-tested (the falsification run checks that the latitude survives).
//
// Ids are "<prefix>.lat.<kebab-name>": the document's toggle prefix (ac, si, iv, or, terms) or "a2a" for a
// cross-cutting latitude of the A2A binding every reference agent honours. The ".lat." infix keeps them apart from
// toggle ids ("<prefix>.<kebab-name>", one dot), so the two can never collide. A Set carries both: mocks consult
// set.On(sabotage.LatX) exactly as they consult a toggle.
type Latitude struct {
	ID ID `json:"id"`
	// Documents are the catalog ids of the documents whose reference agents honour the latitude, or AllDocuments.
	Documents []string `json:"documents"`
	// Permits quotes the sentence (or names the silence) that permits the choice, with its source.
	Permits     string `json:"permits"`
	Description string `json:"description"`
	// Operator says what the operator of an agent making this choice states (the reference agents announce it
	// with the latitude on); empty: the same statement as without the latitude.
	Operator string `json:"operator,omitempty"`
	// Unstatable maps a row id, or a documents member a blocked row names, to why this latitude's operator cannot
	// state what the row needs; any other row the latitude leaves blocked fails it (the gate).
	Unstatable map[string]string `json:"unstatable,omitempty"`
}

// AllDocuments, as a latitude's only document, applies it to every reference agent.
const AllDocuments = "all"

// LatitudeInfix is what every latitude id carries after its prefix.
const LatitudeInfix = ".lat."

// Applies reports whether the latitude applies to document doc.
func (l Latitude) Applies(doc string) bool {
	return slices.Contains(l.Documents, AllDocuments) || slices.Contains(l.Documents, doc)
}

// In returns the documents of docs the latitude applies to, in the order given.
func (l Latitude) In(docs []string) []string {
	var out []string
	for _, d := range docs {
		if l.Applies(d) {
			out = append(out, d)
		}
	}
	return out
}

// IsLatitudeID reports whether id is spelled as a latitude id (whether or not it is registered).
func IsLatitudeID(id string) bool { return strings.Contains(id, LatitudeInfix) }

var latitudes = map[ID]Latitude{}

// RegisterLatitudes adds latitudes; it is called from this package's files at init. A duplicate id (with another
// latitude or a toggle) or an id without the ".lat." infix panics.
func RegisterLatitudes(ls ...Latitude) {
	mu.Lock()
	defer mu.Unlock()
	for _, l := range ls {
		if !IsLatitudeID(string(l.ID)) {
			panic("sabotage: latitude id without " + LatitudeInfix + ": " + string(l.ID))
		}
		if _, dup := latitudes[l.ID]; dup {
			panic("sabotage: duplicate latitude " + string(l.ID))
		}
		if _, dup := registry[l.ID]; dup {
			panic("sabotage: latitude id is a toggle id: " + string(l.ID))
		}
		latitudes[l.ID] = l
	}
}

// Latitudes returns every latitude, sorted by id.
func Latitudes() []Latitude {
	mu.RLock()
	defer mu.RUnlock()
	out := make([]Latitude, 0, len(latitudes))
	for _, l := range latitudes {
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// LookupLatitude returns the latitude with id, a string as it comes from a flag or a bundle.
func LookupLatitude(id string) (Latitude, bool) {
	mu.RLock()
	defer mu.RUnlock()
	l, ok := latitudes[ID(id)]
	return l, ok
}

// KnownLatitude reports whether id names a registered latitude; it is the check bundle verification is handed.
func KnownLatitude(id string) bool {
	_, ok := LookupLatitude(id)
	return ok
}

// Latitudes returns the latitudes switched on in s, sorted by id.
func (s Set) Latitudes() []ID {
	var out []ID
	for id := range s.on {
		if _, ok := LookupLatitude(string(id)); ok {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// OptionNames returns, in id order, the names a reference agent gives its options for the latitudes switched on in
// s (names maps a latitude to its option); latitudes the agent has no option for are not its own and are skipped.
func (s Set) OptionNames(names map[ID]string) []string {
	var out []string
	for _, id := range s.Latitudes() {
		if n, ok := names[id]; ok {
			out = append(out, n)
		}
	}
	return out
}

// Toggles returns the toggles switched on in s, sorted by id.
func (s Set) Toggles() []ID {
	var out []ID
	for id := range s.on {
		if _, ok := Lookup(string(id)); ok {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}
