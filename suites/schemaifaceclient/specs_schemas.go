package schemaifaceclient

import (
	"encoding/json"
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"

	sfx "github.com/extconf/extconf/fixtures/schemaifaceclient"
	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/refclients/skiface"
)

// withInput is the worked example with its input schema edited (inline digests recomputed, so the document is
// coherent and only the edit is under test).
func withInput(edit func(schema map[string]any)) *skill {
	k := exampleSkill()
	k.doc = redigest(editDoc(sfx.ExampleDocument(), func(m map[string]any) { edit(inputSchema(m)) }))
	return k
}

// setUnit replaces the schema of condition.unit.
func setUnit(schema map[string]any, unit any) {
	props := schema["properties"].(map[string]any)
	cond := props["condition"].(map[string]any)["properties"].(map[string]any)
	cond["unit"] = unit
}

func defs(schema map[string]any) map[string]any {
	d, ok := schema["$defs"].(map[string]any)
	if !ok {
		d = map[string]any{}
		schema["$defs"] = d
	}
	return d
}

// withRecord is the worked example whose supporting record carries observed_at = ts.
func withRecord(ts string) *skill {
	k := exampleSkill()
	k.run = exampleRun(exampleOutput, strings.Replace(exampleRecord, "2026-08-11T12:00:01Z", ts, 1))
	return k
}

// outputRefusal: the control (the example's record) is accepted; the bad agent's completed task is refused
// locally with output_invalid and its output withheld.
func outputRefusal(w *harness.W, row string, bad *skill, expected string) {
	good := exampleStandin(w, row)
	c := newClient(w)
	res, err := invokeExample(w, c, good)
	w.Control(err == nil && res.Output != nil, "the example's output and record are accepted", errText(res), lastEx(res))
	s := start(w, row, &standin{skills: []*skill{bad}})
	res, _ = invokeExample(w, c, s)
	w.Negative(res.Err != nil && res.Err.Code == skiface.OutputInvalid && res.Output == nil, expected+": output_invalid, output withheld",
		errText(res), lastEx(res))
}

func registerSchemas(e *harness.Env) {
	external := func(w *harness.W, row string) (*skill, *hits) {
		h := newHits()
		DeferCleanup(h.srv.Close)
		w.Env().OwnListener(h.srv.URL)
		return withInput(func(s map[string]any) { setUnit(s, map[string]any{"$ref": h.srv.URL + "/unit.json"}) }), h
	}

	spec(e, "SI-6.9a", "the reference client validates with network and filesystem schema retrieval disabled", func(w *harness.W) {
		const row = "SI-6.9a"
		k, h := external(w, row)
		refusal(w, row, newClient(w), &standin{skills: []*skill{k}}, "", "a $ref to a loopback URL is never fetched")
		w.Check(h.n.Load() == 0, "zero requests reach the URL the $ref names", fmt.Sprintf("%d requests", h.n.Load()), nil)
	})

	spec(e, "SI-6.11b", "the reference client rejects a document whose validation would need an external retrieval", func(w *harness.W) {
		const row = "SI-6.11b"
		k, _ := external(w, row)
		refusal(w, row, newClient(w), &standin{skills: []*skill{k}}, skiface.InterfaceInvalid,
			"an input schema whose condition.unit is a $ref to an external URL makes the document invalid")
	})

	spec(e, "SI-6.11a", "the reference client rejects a document with a reference that does not resolve inside resolution.schema", func(w *harness.W) {
		const row = "SI-6.11a"
		k := withInput(func(s map[string]any) { setUnit(s, map[string]any{"$ref": "#/$defs/unit"}) })
		refusal(w, row, newClient(w), &standin{skills: []*skill{k}}, skiface.InterfaceInvalid,
			"a $ref to #/$defs/unit, which the schema does not define, makes the document invalid")
	})

	spec(e, "SI-6.11c", "the reference client rejects an embedded schema resource that selects another dialect", func(w *harness.W) {
		const row = "SI-6.11c"
		k := withInput(func(s map[string]any) {
			defs(s)["unit"] = map[string]any{"$id": "urn:extconf:test:unit", "$schema": "http://json-schema.org/draft-07/schema#", "type": "string"}
			setUnit(s, map[string]any{"$ref": "urn:extconf:test:unit"})
		})
		refusal(w, row, newClient(w), &standin{skills: []*skill{k}}, skiface.InterfaceInvalid,
			"an embedded draft-07 resource inside a 2020-12 Schema Reference makes the document invalid")
	})

	spec(e, "SI-6.12a", "the reference client asserts format during instance validation", func(w *harness.W) {
		outputRefusal(w, "SI-6.12a", withRecord("not-a-time"), `a supporting record with observed_at "not-a-time" (format date-time)`)
	})

	spec(e, "SI-6.13a", "the reference client accepts only RFC 3339 date-time for format date-time", func(w *harness.W) {
		const row = "SI-6.13a"
		d, _ := skiface.ParseDocument(sfx.ExampleDocument())
		ref, _ := json.Marshal(d.SupportingRecordSchemas[0].SchemaReference)
		cs, err := skiface.CompileSchema(ref, skiface.Limits{})
		w.Check(err == nil, "the record schema compiles", fmt.Sprint(err), nil)
		table := map[string]bool{"2026-08-11T12:00:01Z": true, "2026-08-11t12:00:01+02:00": true, "2026-08-11T12:00:01": false,
			"2026-08-11 12:00:01Z": false, "2026-13-11T12:00:01Z": false, "2026-08-11T25:00:01Z": false}
		for ts, valid := range table {
			vs := cs.ValidateJSON(json.RawMessage(strings.Replace(exampleRecord, "2026-08-11T12:00:01Z", ts, 1)))
			w.Check((len(vs) == 0) == valid, fmt.Sprintf("observed_at %q valid=%v", ts, valid), fmt.Sprintf("violations %v", vs), nil)
		}
		outputRefusal(w, row, withRecord("2026-08-11T12:00:01"), "a record with observed_at without offset")
		outputRefusal(w, row, withRecord("2026-08-11 12:00:01Z"), "a record with observed_at with a space separator")
	})
}
