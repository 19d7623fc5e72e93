package sabotage

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// ID names a toggle. Every toggle has an exported constant in its document's registry file, so a branch that
// consults a toggle names it by constant: a typo is a compile error, and "find references" on the constant leads
// from its registration to the branches it flips. The string values are the ids of CLI flags, bundles and scripts.
type ID string

// Toggle breaks one requirement. Targets are the rows that must read executed-fail when it is on.
type Toggle struct {
	ID          ID       `json:"id"`
	Document    string   `json:"document"`
	Targets     []string `json:"targets"`
	Description string   `json:"description"`
	// Side says where the break is made: "agent" (a reference mock) or "client" (the harness's reference client
	// or a renderer).
	Side string `json:"side"`
}

// Sides of a toggle.
const (
	SideAgent  = "agent"
	SideClient = "client"
)

var (
	mu       sync.RWMutex
	registry = map[ID]Toggle{}
)

// Register adds toggles; it is called from this package's per-document files at init. A duplicate id panics: two
// toggles with one name would make the falsifiability table ambiguous.
func Register(ts ...Toggle) {
	mu.Lock()
	defer mu.Unlock()
	for _, t := range ts {
		if _, dup := registry[t.ID]; dup {
			panic("sabotage: duplicate toggle " + string(t.ID))
		}
		if t.Side == "" {
			t.Side = SideAgent
		}
		registry[t.ID] = t
	}
}

// All returns every toggle, sorted by id.
func All() []Toggle {
	mu.RLock()
	defer mu.RUnlock()
	out := make([]Toggle, 0, len(registry))
	for _, t := range registry {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Lookup returns the toggle with id, a string as it comes from a flag or a bundle.
func Lookup(id string) (Toggle, bool) {
	mu.RLock()
	defer mu.RUnlock()
	t, ok := registry[ID(id)]
	return t, ok
}

// Known reports whether id names a registered toggle; it is the check bundle verification is handed.
func Known(id string) bool {
	_, ok := Lookup(id)
	return ok
}

// Set is the toggles switched on for one run. The zero value has none on.
type Set struct{ on map[ID]bool }

// Parse builds a Set from ids, toggle or latitude ids alike; an unknown id is an error, so a typo never silently runs
// an unsabotaged mock.
func Parse(ids ...string) (Set, error) {
	s := Set{on: map[ID]bool{}}
	for _, id := range ids {
		id = strings.TrimSpace(id)
		if id == "" {
			continue
		}
		if _, ok := Lookup(id); !ok {
			if IsLatitudeID(id) {
				if _, ok := LookupLatitude(id); !ok {
					return Set{}, fmt.Errorf("unknown latitude %q (see `runsuite latitude list`)", id)
				}
			} else {
				return Set{}, fmt.Errorf("unknown sabotage toggle %q (see `runsuite sabotage list`)", id)
			}
		}
		s.on[ID(id)] = true
	}
	return s, nil
}

// MustParse is Parse for ids known at compile time.
func MustParse(ids ...ID) Set {
	strs := make([]string, len(ids))
	for i, id := range ids {
		strs[i] = string(id)
	}
	s, err := Parse(strs...)
	if err != nil {
		panic(err)
	}
	return s
}

// Faults is how toggles travel through code that must not name this package's types: the engine's
// harness.Faults has the same method set, so suites pass the run's toggles to a reference client untouched.
type Faults interface{ IDs() []string }

// From recovers the typed set from Faults. A nil f is the empty set; ids from elsewhere are parsed, and an
// unknown one panics as a consulted unregistered toggle would.
func From(f Faults) Set {
	switch f := f.(type) {
	case nil:
		return Set{}
	case Set:
		return f
	}
	s, err := Parse(f.IDs()...)
	if err != nil {
		panic(err)
	}
	return s
}

// On reports whether toggle or latitude id is switched on. Callers pass the registry's constants; an unregistered
// id (an ID conversion or untyped literal that slipped past the compiler) still panics.
func (s Set) On(id ID) bool {
	if _, ok := Lookup(string(id)); !ok && !KnownLatitude(string(id)) {
		panic("sabotage: mock consults unregistered toggle " + string(id))
	}
	return s.on[id]
}

// IDs returns the ids switched on (toggles and latitudes), sorted.
func (s Set) IDs() []string {
	out := make([]string, 0, len(s.on))
	for id := range s.on {
		out = append(out, string(id))
	}
	sort.Strings(out)
	return out
}

// Empty reports whether no toggle and no latitude is on.
func (s Set) Empty() bool { return len(s.on) == 0 }
