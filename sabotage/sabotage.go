// Package sabotage is the registry of sabotage toggles: each breaks one requirement of a reference mock agent (or
// of the harness's reference client) on purpose, so a run against it proves the targeted rows' tests can fail.
package sabotage

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/extconf/extconf/harness/catalog"
)

// Toggle breaks one requirement. Targets are the rows that must read executed-fail when it is on.
type Toggle struct {
	ID          string   `json:"id"`
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
	registry = map[string]Toggle{}
)

// Register adds toggles; it is called from this package's per-document files at init. A duplicate id panics: two
// toggles with one name would make the falsifiability table ambiguous.
func Register(ts ...Toggle) {
	mu.Lock()
	defer mu.Unlock()
	for _, t := range ts {
		if _, dup := registry[t.ID]; dup {
			panic("sabotage: duplicate toggle " + t.ID)
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

// Lookup returns the toggle with id.
func Lookup(id string) (Toggle, bool) {
	mu.RLock()
	defer mu.RUnlock()
	t, ok := registry[id]
	return t, ok
}

var idPattern = regexp.MustCompile(`^[a-z]+\.[a-z0-9-]+$`)

// Check verifies the registry against the catalog: ids well-formed, document known, targets exist, belong to the
// toggle's document and are witnessable.
func Check(c *catalog.Catalog) []error {
	var errs []error
	for _, t := range All() {
		if !idPattern.MatchString(t.ID) {
			errs = append(errs, fmt.Errorf("toggle %q: id must be <doc>.<kebab-name>", t.ID))
		}
		if _, ok := catalog.DocumentByID(t.Document); !ok {
			errs = append(errs, fmt.Errorf("toggle %q: unknown document %q", t.ID, t.Document))
		}
		if t.Side != SideAgent && t.Side != SideClient {
			errs = append(errs, fmt.Errorf("toggle %q: side must be agent or client", t.ID))
		}
		if len(t.Targets) == 0 || strings.TrimSpace(t.Description) == "" {
			errs = append(errs, fmt.Errorf("toggle %q: needs targets and a description", t.ID))
		}
		for _, id := range t.Targets {
			r, ok := c.Row(id)
			switch {
			case !ok:
				errs = append(errs, fmt.Errorf("toggle %q: unknown target row %q", t.ID, id))
			case r.Document != t.Document:
				errs = append(errs, fmt.Errorf("toggle %q: target %q belongs to %s", t.ID, id, r.Document))
			case !r.Witnessable():
				errs = append(errs, fmt.Errorf("toggle %q: target %q is unwitnessable", t.ID, id))
			}
		}
	}
	return errs
}

// Set is the toggles switched on for one run. The zero value has none on.
type Set struct{ on map[string]bool }

// Parse builds a Set from ids; an unknown id is an error, so a typo never silently runs an unsabotaged mock.
func Parse(ids ...string) (Set, error) {
	s := Set{on: map[string]bool{}}
	for _, id := range ids {
		id = strings.TrimSpace(id)
		if id == "" {
			continue
		}
		if _, ok := Lookup(id); !ok {
			return Set{}, fmt.Errorf("unknown sabotage toggle %q (see `runsuite sabotage list`)", id)
		}
		s.on[id] = true
	}
	return s, nil
}

// MustParse is Parse for ids known at compile time.
func MustParse(ids ...string) Set {
	s, err := Parse(ids...)
	if err != nil {
		panic(err)
	}
	return s
}

// On reports whether toggle id is switched on. Asking for an unregistered id panics: it is a typo in a mock.
func (s Set) On(id string) bool {
	if _, ok := Lookup(id); !ok {
		panic("sabotage: mock consults unregistered toggle " + id)
	}
	return s.on[id]
}

// IDs returns the ids switched on, sorted.
func (s Set) IDs() []string {
	out := make([]string, 0, len(s.on))
	for id := range s.on {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// Empty reports whether no toggle is on.
func (s Set) Empty() bool { return len(s.on) == 0 }
