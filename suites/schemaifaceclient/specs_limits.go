package schemaifaceclient

import (
	"fmt"
	"strings"
	"time"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/refclients/skiface"
)

// limitCase: the control document is accepted, the over-limit one stops the procedure locally with
// resource_limit_exceeded before any domain-skill request.
func limitCase(w *harness.W, row string, lim skiface.Limits, control, over *skill, what string) *skiface.Result {
	c := newClient(w)
	c.Limits = lim
	s := start(w, row, &standin{skills: []*skill{control}})
	res, err := invokeExample(w, c, s)
	w.Control(err == nil && s.count("domain") == 1, "a document within the limit is accepted", errText(res), lastEx(res))
	b := start(w, row, &standin{skills: []*skill{over}})
	t0 := time.Now()
	res, _ = invokeExample(w, c, b)
	w.Negative(res.Err != nil && res.Local && res.Err.Code == skiface.ResourceLimitExceeded && b.count("domain") == 0,
		what+": the client stops with resource_limit_exceeded and delegates nothing",
		fmt.Sprintf("%s; %d domain requests; %s", errText(res), b.count("domain"), time.Since(t0).Round(time.Millisecond)), lastEx(res))
	return res
}

// notChain is n nested "not" keywords around {"type":"string"} (n even: the same constraint, n levels deeper).
func notChain(n int) any {
	var v any = map[string]any{"type": "string"}
	for i := 0; i < n; i++ {
		v = map[string]any{"not": v}
	}
	return v
}

// refChain is a chain of n in-place $ref hops ending at {"type":"string"} (cyclic: ending back at the first).
func refChain(n int, cyclic bool) func(s map[string]any) {
	return func(s map[string]any) {
		d := defs(s)
		for i := 0; i < n; i++ {
			next := map[string]any{"$ref": fmt.Sprintf("#/$defs/hop%d", i+1)}
			if i == n-1 {
				next = map[string]any{"type": "string"}
				if cyclic {
					next = map[string]any{"$ref": "#/$defs/hop0"}
				}
			}
			d[fmt.Sprintf("hop%d", i)] = next
		}
		setUnit(s, map[string]any{"$ref": "#/$defs/hop0"})
	}
}

func padded(n int) *skill {
	return withInput(func(s map[string]any) { s["description"] = strings.Repeat("p", n) })
}

func registerLimits(e *harness.Env) {
	spec(e, "SI-12.2a", "the reference client enforces a schema size limit", func(w *harness.W) {
		// A 16 KiB limit keeps the spec fast; the 1 MiB default is exercised by the package's unit tests.
		lim := skiface.Limits{MaxSchemaBytes: 16 << 10}
		limitCase(w, "SI-12.2a", lim, padded(12<<10), padded(20<<10), "an inline schema of about 20 KiB (schema size limit 16 KiB)")
	})

	spec(e, "SI-12.2b", "the reference client enforces a nesting limit", func(w *harness.W) {
		control := withInput(func(s map[string]any) { setUnit(s, notChain(96)) })
		over := withInput(func(s map[string]any) { setUnit(s, notChain(196)) })
		limitCase(w, "SI-12.2b", skiface.Limits{}, control, over, "an inline schema nested about 200 levels (limit 128)")
	})

	spec(e, "SI-12.2c", "the reference client enforces a reference depth limit", func(w *harness.W) {
		limitCase(w, "SI-12.2c", skiface.Limits{}, withInput(refChain(20, false)), withInput(refChain(40, false)),
			"a chain of 40 consecutive $ref hops (limit 32)")
	})

	spec(e, "SI-12.2d", "the reference client enforces a limit on reference cycles", func(w *harness.W) {
		control := withInput(func(s map[string]any) {
			defs(s)["tree"] = map[string]any{"type": "object", "properties": map[string]any{"kids": map[string]any{"type": "array", "items": map[string]any{"$ref": "#/$defs/tree"}}}}
			s["properties"].(map[string]any)["tags"] = map[string]any{"$ref": "#/$defs/tree"}
		})
		limitCase(w, "SI-12.2d", skiface.Limits{}, control, withInput(refChain(3, true)),
			"$refs forming a cycle that never consumes the instance (recursion through items is the control)")
	})

	spec(e, "SI-12.2e", "the reference client enforces a compilation time limit", func(w *harness.W) {
		const row = "SI-12.2e"
		s := exampleStandin(w, row)
		c := newClient(w)
		res, err := invokeExample(w, c, s)
		w.Control(err == nil, "with the default 2 s compilation budget the example compiles", errText(res), lastEx(res))
		c = newClient(w)
		c.Limits = skiface.Limits{CompileTimeout: time.Nanosecond}
		res, _ = invokeExample(w, c, s)
		w.Negative(res.Err != nil && res.Err.Code == skiface.ResourceLimitExceeded && s.count("domain") == 1,
			"with a 1 ns budget the same compilation is stopped with resource_limit_exceeded", errText(res), lastEx(res))
	})

	spec(e, "SI-12.2f", "the reference client enforces a payload size limit", func(w *harness.W) {
		lim := skiface.Limits{MaxPayloadBytes: 16 << 10}
		limitCase(w, "SI-12.2f", lim, exampleSkill(), padded(24<<10), "a describe_skill response of about 24 KiB (payload limit 16 KiB)")
	})

	spec(e, "SI-12.2g", "the reference client enforces a limit on cache consumption", func(w *harness.W) {
		const row = "SI-12.2g"
		sd, _ := cacheStandin("5") // the stand-in a client certification serves for the same row
		ks := sd.skills
		s := start(w, row, sd)
		c := newClient(w)
		c.Limits = skiface.Limits{MaxCacheEntries: 3}
		for _, k := range ks[:3] {
			_, _, _ = c.Describe(ctx(w), s.cardURL(), k.id)
		}
		w.Control(c.CacheLen() == 3, "three documents are cached", fmt.Sprintf("%d cached", c.CacheLen()), nil)
		for _, k := range ks[3:] {
			_, _, _ = c.Describe(ctx(w), s.cardURL(), k.id)
		}
		w.Negative(c.CacheLen() <= 3, "five documents with a 3-entry budget: the cache stays at 3", fmt.Sprintf("%d cached", c.CacheLen()), nil)
		c2 := newClient(w)
		c2.Limits = skiface.Limits{MaxCacheBytes: 1000}
		_, res, err := c2.Describe(ctx(w), s.cardURL(), ks[0].id)
		w.Negative(err != nil && res.Err != nil && res.Err.Code == skiface.ResourceLimitExceeded && c2.CacheLen() == 0,
			"a document larger than a 1000-byte cache budget is refused with resource_limit_exceeded", errText(res), lastEx(res))
	})

	spec(e, "SI-12.3b", "a limit refusal of the reference client reports resource_limit_exceeded locally", func(w *harness.W) {
		const row = "SI-12.3b"
		res := limitCase(w, row, skiface.Limits{}, withInput(refChain(2, false)), withInput(refChain(3, true)), "an in-place $ref cycle")
		w.Check(res.Task == nil && res.RemoteState == "", "a local condition: no remote task, no task state",
			fmt.Sprintf("task %v, state %q", res.Task, res.RemoteState), lastEx(res))
	})
}
