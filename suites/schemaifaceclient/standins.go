package schemaifaceclient

import (
	"fmt"
	"sort"
	"strings"
	"time"

	sfx "github.com/extconf/extconf/fixtures/schemaifaceclient"
)

// standins are the stand-ins a client certification (certify, runsuite client) plays as the counterpart of
// someone else's client, by name: each is the one a spec here starts for the same row, so the client under test
// meets exactly the agent the reference client meets in the self-check.
var standins = map[string]func() *standin{
	// the worked example, correct: the positive control
	"example": func() *standin { return &standin{skills: []*skill{exampleSkill()}} },
	// SI-12.11a: describe_skill answers with a valid document for another skill_id (its own true digest)
	"other-skill-document": func() *standin { return &standin{skills: []*skill{otherSkillDoc()}} },
	// SI-12.10b: a document the standard Skill Interface Schema rejects (default_mode outside the three values)
	"bad-default-mode": func() *standin { return &standin{skills: []*skill{extraMember()}} },
	// SI-9.55b: the example's input_schema digest zeroed, the interface digest over the document as served
	"embedded-digest-zeroed": func() *standin { return &standin{skills: []*skill{embeddedDigestZeroed()}} },
	// SI-6.11a: a $ref to #/$defs/unit, which the schema does not define
	"unresolved-ref": func() *standin {
		return &standin{skills: []*skill{withInput(func(s map[string]any) { setUnit(s, map[string]any{"$ref": "#/$defs/unit"}) })}}
	},
	// SI-6.12a, SI-6.13a: the supporting record's observed_at fails format date-time
	"record-not-a-time":          func() *standin { return &standin{skills: []*skill{withRecord("not-a-time")}} },
	"record-date-time-no-offset": func() *standin { return &standin{skills: []*skill{withRecord("2026-08-11T12:00:01")}} },
	"record-date-time-space":     func() *standin { return &standin{skills: []*skill{withRecord("2026-08-11 12:00:01Z")}} },
	// SI-7.1b: the example served with reordered members, extra whitespace and \u0073 escapes (same JCS, same digests)
	"scrambled-document": func() *standin {
		k := exampleSkill()
		k.doc, k.raw = scramble(sfx.ExampleDocument()), true
		return &standin{skills: []*skill{k}}
	},
	// SI-6.1, 6.3, 9.63–9.68b: the composition's upstream (measure_link_bandwidth, whose output is the link
	// measurement) and downstream (assess_link_health with identical references, and one variant per compared
	// member: _uri, _version, _dialect, _digest)
	"compose-upstream":   func() *standin { return &standin{skills: []*skill{measure()}} },
	"compose-downstream": func() *standin { return &standin{skills: downstreamSkills()} },
	// SI-6.2: the worked example, every task issued with the id task-123 (two of these: two endpoints, one id)
	"example-task-123": func() *standin { return &standin{skills: []*skill{exampleSkill()}, taskID: "task-123"} },
	// SI-9.14a/b: a base A2A agent (no extension, no describe_skill) whose skill summarize_config takes application/json
	"plain": func() *standin {
		return &standin{plain: true, skills: []*skill{{id: PlainSkill, name: "Summarize configuration", inputModes: []string{"application/json"}}}}
	},
	// SI-9.10a: the card advertises skill_version 1.2 of the example
	"skill-version-1-2": func() *standin {
		k := exampleSkill()
		k.doc = redigest(editDoc(sfx.ExampleDocument(), func(m map[string]any) { m["skill_version"] = "1.2" }))
		return &standin{skills: []*skill{k}}
	},
}

// StandinNames lists the stand-ins StartStandin starts.
func StandinNames() []string {
	var out []string
	for n := range standins {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// StartStandin starts the named stand-in on 127.0.0.1 (plain http) and returns its card URL; closeFn stops it.
func StartStandin(name string) (cardURL string, closeFn func(), err error) {
	var s *standin
	if strings.HasPrefix(name, "limit:") {
		if s, err = limitStandin(name); err != nil {
			return "", nil, err
		}
	} else if n, ok := strings.CutPrefix(name, "cache:"); ok {
		if s, err = cacheStandin(n); err != nil {
			return "", nil, err
		}
	} else if mk, ok := standins[name]; ok {
		s = mk()
	} else {
		return "", nil, fmt.Errorf("no stand-in %q (known: %v, limit:<kind>:<n>, cache:<n>)", name, StandinNames())
	}
	if err := s.start(); err != nil {
		return "", nil, err
	}
	return s.cardURL(), s.close, nil
}

// ExampleSkill is the worked example's skill id the stand-ins serve; MeasureSkill the composition's upstream skill,
// LinkMeasurementURI the schema_uri of its output.
const (
	PlainSkill         = "summarize_config" // the plain (non-conforming) stand-in's skill
	ExampleSkill       = sfx.ExampleSkill
	MeasureSkill       = measureSkill
	LinkMeasurementURI = sfx.LinkMeasurementURI
)

// ObservedBase is the upstream composition stand-in's clock: its observed_at is this instant less the age_seconds
// asked for.
func ObservedBase() time.Time { return observedBase }

// Limit stand-ins (client certification of a declared validator limit): "limit:<kind>:<n>" serves the worked
// example with one dimension sized n — schema-bytes (the input schema padded to about n bytes), nesting (condition.unit
// n nested "not" keywords deep), ref-depth (a chain of n consecutive $ref hops), payload (the describe_skill
// answer's task metadata padded with n bytes, no schema enlarged), cycle (n=1: $refs forming a cycle that consumes
// no instance; n=0: recursion through items, the control).
func limitStandin(name string) (*standin, error) {
	var kind string
	var n int
	if _, err := fmt.Sscanf(strings.ReplaceAll(name, ":", " "), "limit %s %d", &kind, &n); err != nil || n < 0 {
		return nil, fmt.Errorf("limit stand-in %q: want limit:<kind>:<n>", name)
	}
	switch kind {
	case "schema-bytes":
		return &standin{skills: []*skill{padded(n)}}, nil
	case "nesting":
		return &standin{skills: []*skill{withInput(func(s map[string]any) { setUnit(s, notChain(n&^1)) })}}, nil
	case "ref-depth":
		return &standin{skills: []*skill{withInput(refChain(max(n, 1), false))}}, nil
	case "payload":
		return &standin{skills: []*skill{exampleSkill()}, pad: n}, nil
	case "cycle":
		if n == 0 {
			return &standin{skills: []*skill{withInput(func(s map[string]any) {
				defs(s)["tree"] = map[string]any{"type": "object", "properties": map[string]any{"kids": map[string]any{"type": "array", "items": map[string]any{"$ref": "#/$defs/tree"}}}}
				s["properties"].(map[string]any)["tags"] = map[string]any{"$ref": "#/$defs/tree"}
			})}}, nil
		}
		return &standin{skills: []*skill{withInput(refChain(3, true))}}, nil
	}
	return nil, fmt.Errorf("limit stand-in %q: no kind %q", name, kind)
}

// StartWatchedStandin starts the "external-ref" stand-in (SI-6.9a): the worked example whose condition.unit is a
// $ref to a URL on a second loopback listener, the document's digests coherent. watched counts the requests that
// reached that listener: a validator with retrieval disabled sends none.
func StartWatchedStandin() (cardURL string, watched func() int, closeFn func(), err error) {
	h := newHits()
	s := &standin{skills: []*skill{withInput(func(s map[string]any) { setUnit(s, map[string]any{"$ref": h.srv.URL + "/unit.json"}) })}}
	if err := s.start(); err != nil {
		h.srv.Close()
		return "", nil, nil, err
	}
	return s.cardURL(), func() int { return int(h.n.Load()) }, func() { s.close(); h.srv.Close() }, nil
}

// MaxCacheSkills bounds the "cache:<n>" stand-in.
const MaxCacheSkills = 80

// CacheSkill is the skill_id of the i-th (from 1) copy of the worked example the "cache:<n>" stand-in serves.
func CacheSkill(i int) string { return fmt.Sprintf("%s_%d", sfx.ExampleSkill, i) }

// cacheStandin (client certification of a declared cache limit, SI-12.2g): "cache:<n>" serves n copies of the
// worked example under the skill_ids CacheSkill(1…n), each document naming its own skill_id, as the self-check's
// spec does: n distinct documents for one client process to cache.
func cacheStandin(arg string) (*standin, error) {
	var n int
	if _, err := fmt.Sscanf(arg, "%d", &n); err != nil || n < 1 || n > MaxCacheSkills || fmt.Sprint(n) != arg {
		return nil, fmt.Errorf("cache stand-in %q: want cache:<n>, 1 ≤ n ≤ %d", arg, MaxCacheSkills)
	}
	var ks []*skill
	for i := 1; i <= n; i++ {
		k := exampleSkill()
		k.id = CacheSkill(i)
		k.doc = editDoc(sfx.ExampleDocument(), func(m map[string]any) { m["skill_id"] = k.id })
		ks = append(ks, k)
	}
	return &standin{skills: ks}, nil
}
