package schemaifaceclient

import (
	"encoding/json"
	"fmt"
	"time"

	sfx "github.com/extconf/extconf/fixtures/schemaifaceclient"
	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/refclients/skiface"
)

const measureSkill = "measure_link_bandwidth"

// observedBase is the stand-in's clock for link observations.
var observedBase = time.Date(2026, 8, 11, 12, 0, 0, 0, time.UTC)

// measure is the upstream skill: its output reference is the link measurement.
func measure() *skill {
	doc := sfx.Doc{SkillID: measureSkill,
		Input:  sfx.Ref{URI: "urn:extconf:test:link-query", Schema: sfx.LinkQuery},
		Output: sfx.Ref{URI: sfx.LinkMeasurementURI, Schema: sfx.LinkMeasurement}}.MustBuild()
	return &skill{id: measureSkill, name: "Measure link bandwidth", doc: doc, run: func(args json.RawMessage) (json.RawMessage, []record) {
		var a struct {
			LinkID string `json:"link_id"`
			Age    int    `json:"age_seconds"`
		}
		_ = json.Unmarshal(args, &a)
		out := map[string]any{"link_id": a.LinkID, "metric": "available_bandwidth", "value": 42.5, "unit": "Gbps", "window_seconds": 60,
			"observed_at": observedBase.Add(-time.Duration(a.Age) * time.Second).Format(time.RFC3339)}
		b, _ := json.Marshal(out)
		return b, nil
	}}
}

// assess is a downstream skill whose input reference is in.
func assess(id string, in sfx.Ref) *skill {
	doc := sfx.Doc{SkillID: id, Input: in, Output: sfx.Ref{URI: "urn:extconf:test:link-health", Schema: sfx.LinkHealth}}.MustBuild()
	return &skill{id: id, name: "Assess link health", doc: doc, run: func(json.RawMessage) (json.RawMessage, []record) {
		return json.RawMessage(`{"health":"healthy"}`), nil
	}}
}

// downstream skills: one whose input reference equals the upstream output reference, and one differing in each
// of the four compared members (the instance validates against every one of them).
func downstreamSkills() []*skill {
	m := sfx.Ref{URI: sfx.LinkMeasurementURI, Version: "1.0", Schema: sfx.LinkMeasurement}
	uri, ver, dia, dig := m, m, m, m
	uri.URI = sfx.LinkMeasurementURI + ":bis"
	ver.Version = "1.1"
	dia.Dialect = skiface.Dialect2020 + "#"
	dig.Schema = sfx.LinkMeasurementAnnotated
	return []*skill{assess("assess_link_health", m), assess("assess_link_health_uri", uri), assess("assess_link_health_version", ver),
		assess("assess_link_health_dialect", dia), assess("assess_link_health_digest", dig)}
}

// composeRun composes measure (upstream stand-in) into downSkill (downstream stand-in) and requires it to work:
// the control for the composition rules.
func composeRun(w *harness.W, row, downSkill string, c *skiface.Client) (*standin, *standin, *skiface.Composition) {
	up, down, comp, err := composeTry(w, row, downSkill, c)
	composeControl(w, downSkill, down, comp, err)
	return up, down, comp
}

// composeTry composes as composeRun does, leaving the control to the caller (composeControl): a row about what the
// client sent downstream judges that before the downstream's answer to it.
func composeTry(w *harness.W, row, downSkill string, c *skiface.Client) (*standin, *standin, *skiface.Composition, error) {
	up := start(w, row, &standin{skills: []*skill{measure()}})
	down := start(w, row, &standin{skills: downstreamSkills()})
	if c == nil {
		c = newClient(w)
	}
	comp, err := c.Compose(ctx(w), upReq(up, 10), skiface.Request{CardURL: down.cardURL(), SkillID: downSkill}, nil)
	return up, down, comp, err
}

func composeControl(w *harness.W, downSkill string, down *standin, comp *skiface.Composition, err error) {
	w.Control(err == nil && comp.Direct && down.count("domain") == 1,
		"measure_link_bandwidth → "+downSkill+" (identical Schema References) composes into a new downstream task", compText(comp, err), compEx(comp))
}

func upReq(up *standin, age int) skiface.Request {
	return skiface.Request{CardURL: up.cardURL(), SkillID: measureSkill, Arguments: json.RawMessage(fmt.Sprintf(`{"link_id":"link-7","age_seconds":%d}`, age))}
}

func compText(comp *skiface.Composition, err error) string {
	if comp == nil {
		return fmt.Sprint(err)
	}
	s := fmt.Sprintf("direct %v; err %v", comp.Direct, err)
	if comp.Up != nil {
		s += "; upstream " + errText(comp.Up)
	}
	if comp.Down != nil {
		s += "; downstream " + errText(comp.Down)
	}
	return s
}

func compEx(comp *skiface.Composition) *a2a.Exchange {
	if comp == nil {
		return nil
	}
	if comp.Down != nil {
		return lastEx(comp.Down)
	}
	return lastEx(comp.Up)
}

func exURL(ex *a2a.Exchange) string {
	if ex == nil {
		return "nowhere"
	}
	return ex.URL
}

func registerCompose(e *harness.Env) {
	refuseVariant := func(row, variant, what string) func(w *harness.W) {
		return func(w *harness.W) {
			up, down, _ := composeRun(w, row, "assess_link_health", nil)
			comp, err := newClient(w).Compose(ctx(w), upReq(up, 10), skiface.Request{CardURL: down.cardURL(), SkillID: variant}, nil)
			w.Negative(err != nil && !comp.Direct && down.count("domain") == 1,
				"no direct composition when "+what+" differs (the instance would validate): no downstream task",
				fmt.Sprintf("%s; %d downstream tasks in total (1 from the control)", compText(comp, err), down.count("domain")), compEx(comp))
		}
	}
	spec(e, "SI-9.64a", "direct composition requires the same schema_uri", refuseVariant("SI-9.64a", "assess_link_health_uri", "schema_uri"))
	spec(e, "SI-9.64b", "direct composition requires the same version", refuseVariant("SI-9.64b", "assess_link_health_version", "version"))
	spec(e, "SI-9.64c", "direct composition requires the same dialect", refuseVariant("SI-9.64c", "assess_link_health_dialect", "dialect"))
	spec(e, "SI-9.64d", "direct composition requires the same digest", refuseVariant("SI-9.64d", "assess_link_health_digest", "digest"))

	spec(e, "SI-9.66", "the reference client does not compose on successful validation alone", func(w *harness.W) {
		const row = "SI-9.66"
		up, down, _ := composeRun(w, row, "assess_link_health", nil)
		c := newClient(w)
		comp, err := c.Compose(ctx(w), upReq(up, 10), skiface.Request{CardURL: down.cardURL(), SkillID: "assess_link_health_version"}, nil)
		iface, _, _ := c.Describe(ctx(w), down.cardURL(), "assess_link_health_version")
		validates := iface != nil && len(iface.Verified.Input.ValidateJSON(comp.Up.Output)) == 0
		w.Negative(validates && err != nil && !comp.Direct && down.count("domain") == 1,
			"the upstream output validates against the 1.1 downstream input schema, yet version differs: no composition",
			fmt.Sprintf("validates downstream: %v; %s", validates, compText(comp, err)), compEx(comp))
	})

	spec(e, "SI-9.65a", "the reference client validates the transferred instance against the downstream input schema before delegating", func(w *harness.W) {
		const row = "SI-9.65a"
		up, down, _ := composeRun(w, row, "assess_link_health", nil)
		addWorkflow := func(out json.RawMessage) json.RawMessage {
			var m map[string]any
			_ = json.Unmarshal(out, &m)
			m["workflow_id"] = "wf-1" // an orchestration field the downstream schema does not define
			b, _ := json.Marshal(m)
			return b
		}
		comp, err := newClient(w).Compose(ctx(w), upReq(up, 10), skiface.Request{CardURL: down.cardURL(), SkillID: "assess_link_health"}, addWorkflow)
		w.Negative(err != nil && comp.Err != nil && comp.Err.Code == skiface.InputInvalid && down.count("domain") == 1,
			"a transferred instance failing the downstream input schema is refused locally with input_invalid; no downstream task",
			fmt.Sprintf("%s; %d downstream tasks in total", compText(comp, err), down.count("domain")), compEx(comp))
	})

	spec(e, "SI-9.68b", "a delegating reference client whose domain handler detects a constraint failure rejects with constraint_rejected", func(w *harness.W) {
		const row = "SI-9.68b"
		c := newClient(w)
		c.Handlers = map[string]func(json.RawMessage) error{
			// test-only freshness handler: an observation older than 5 minutes does not satisfy the downstream need
			sfx.LinkMeasurementURI: func(inst json.RawMessage) error {
				var m struct {
					ObservedAt time.Time `json:"observed_at"`
				}
				if err := json.Unmarshal(inst, &m); err != nil {
					return err
				}
				if age := observedBase.Sub(m.ObservedAt); age > 5*time.Minute {
					return fmt.Errorf("observation is %s old, the limit is 5m", age)
				}
				return nil
			},
		}
		up, down, _ := composeRun(w, row, "assess_link_health", c)
		comp, err := c.Compose(ctx(w), upReq(up, 3600), skiface.Request{CardURL: down.cardURL(), SkillID: "assess_link_health"}, nil)
		w.Negative(err != nil && comp.Err != nil && comp.Err.Code == skiface.ConstraintRejected && down.count("domain") == 1,
			"an hour-old measurement fails the handler: constraint_rejected locally, no downstream task",
			fmt.Sprintf("%s; %d downstream tasks in total", compText(comp, err), down.count("domain")), compEx(comp))
	})
}
