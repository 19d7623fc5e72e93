package schemaifaceclient

import (
	"fmt"

	sfx "github.com/extconf/extconf/fixtures/schemaifaceclient"
	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/refclients/skiface"
)

// unadvertised runs the control (the advertised skill goes through describe_skill) and then asks for a skill
// the card does not advertise; it returns the stand-in and the second result.
func unadvertised(w *harness.W, row string) (*standin, *skiface.Result) {
	s := exampleStandin(w, row)
	c := newClient(w)
	res, err := invokeExample(w, c, s)
	w.Control(err == nil && s.count("describe") == 1 && res.Task != nil, "the advertised skill is described and delegated", errText(res), lastEx(res))
	res, _ = c.Invoke(ctx(w), skiface.Request{CardURL: s.cardURL(), SkillID: "delete_resource", Arguments: sfx.ExampleArguments()})
	return s, res
}

// plainAgent is a base A2A agent: no extension, no describe_skill, one skill taking JSON.
func plainAgent(w *harness.W, row string) *standin {
	k := &skill{id: "summarize_config", name: "Summarize configuration", inputModes: []string{"application/json"}}
	return start(w, row, &standin{plain: true, skills: []*skill{k}})
}

func registerLocal(e *harness.Env) {
	spec(e, "SI-9.44", "a locally detected error is reported as a local condition, never as a remote task state", func(w *harness.W) {
		const row = "SI-9.44"
		_, res := unadvertised(w, row)
		w.Negative(res.Err != nil && res.Local && res.Task == nil && res.RemoteState == "",
			"skill_not_advertised reported locally: no task id, no TASK_STATE_*",
			fmt.Sprintf("%s; task %v; state %q", errText(res), res.Task, res.RemoteState), lastEx(res))
	})

	spec(e, "SI-9.45a", "after a locally detected error the reference client stops the procedure", func(w *harness.W) {
		const row = "SI-9.45a"
		s, res := unadvertised(w, row)
		w.Negative(s.count("describe") == 1 && s.count("domain") == 1 && res.Err != nil,
			"after skill_not_advertised no describe_skill or domain-skill request follows (one of each from the control)",
			fmt.Sprintf("describe %d, domain %d in total; %s", s.count("describe"), s.count("domain"), errText(res)), lastEx(res))
		v := start(w, row, &standin{skills: []*skill{exampleSkill()}, interfaceVersion: "1.1"})
		res, _ = invokeExample(w, newClient(w), v)
		w.Negative(v.count("describe") == 0 && v.count("domain") == 0 && res.Err != nil,
			"after unsupported_interface_version (extension 1.1) nothing is sent", fmt.Sprintf("describe %d, domain %d; %s", v.count("describe"), v.count("domain"), errText(res)), lastEx(res))
	})

	spec(e, "SI-9.45b", "the reference client reports the machine-readable condition code of a local error", func(w *harness.W) {
		const row = "SI-9.45b"
		_, res := unadvertised(w, row)
		w.Negative(res.Err != nil && skiface.IsCode(res.Err.Code), "the local error carries a condition code (skill_not_advertised)", errText(res), lastEx(res))
		bad := start(w, row, &standin{skills: []*skill{tampered()}})
		res, _ = invokeExample(w, newClient(w), bad)
		w.Negative(res.Err != nil && res.Err.Code == skiface.InterfaceInvalid, "a tampered document: code interface_invalid", errText(res), lastEx(res))
	})

	spec(e, "SI-9.52c", "the reference client reports skill_not_advertised for a skill the card does not advertise", func(w *harness.W) {
		const row = "SI-9.52c"
		_, res := unadvertised(w, row)
		w.Negative(res.Err != nil && res.Err.Code == skiface.SkillNotAdvertised, "code skill_not_advertised", errText(res), lastEx(res))
	})

	spec(e, "SI-9.53", "the reference client sends no request for a skill the Agent Card does not advertise", func(w *harness.W) {
		const row = "SI-9.53"
		s, res := unadvertised(w, row)
		w.Negative(s.count("describe") == 1 && len(describes(res)) == 0 && len(domains(res)) == 0,
			"no describe_skill(delete_resource) and no domain-skill request", fmt.Sprintf("%d describe_skill requests at the agent in total (1 from the control); %s", s.count("describe"), errText(res)), lastEx(res))
	})

	spec(e, "SI-9.13", "the reference client does not run the schema-interface procedure against an agent without the extension or describe_skill", func(w *harness.W) {
		const row = "SI-9.13"
		good := exampleStandin(w, row)
		c := newClient(w)
		res, err := invokeExample(w, c, good)
		w.Control(err == nil && good.count("describe") == 1, "a conforming agent is asked describe_skill", errText(res), lastEx(res))
		p := plainAgent(w, row)
		res, _ = c.Invoke(ctx(w), skiface.Request{CardURL: p.cardURL(), SkillID: "summarize_config", Arguments: sfx.ExampleArguments()})
		w.Negative(len(p.requests()) == 0 && res.Err != nil && !res.SchemaGoverned,
			"a base A2A agent gets no describe_skill and no skill request object", fmt.Sprintf("%d requests at the agent; %s", len(p.requests()), errText(res)), lastEx(res))
		k := exampleSkill()
		nd := start(w, row, &standin{skills: []*skill{k}, noExtension: true})
		res, _ = invokeExample(w, c, nd)
		w.Negative(len(nd.requests()) == 0 && res.Err != nil, "an agent with describe_skill but without the extension gets nothing",
			fmt.Sprintf("%d requests; %s", len(nd.requests()), errText(res)), lastEx(res))
	})

	spec(e, "SI-9.14a", "for a non-conforming agent the reference client derives no schema from skill descriptions or media types", func(w *harness.W) {
		const row = "SI-9.14a"
		p := plainAgent(w, row)
		res, err := newClient(w).InvokeBase(ctx(w), p.cardURL(), "summarize_config", "summarize the running configuration")
		w.Control(err == nil && res.Task != nil, "the base A2A invocation completes", errText(res), lastEx(res))
		w.Negative(res.InferredSchema == nil && res.Interface == nil, "no schema, validator or Schema Reference attached to the invocation",
			fmt.Sprintf("inferred schema %s", res.InferredSchema), lastEx(res))
	})

	spec(e, "SI-9.14b", "the reference client claims no schema-interface conformance for a base A2A invocation", func(w *harness.W) {
		const row = "SI-9.14b"
		p := plainAgent(w, row)
		res, err := newClient(w).InvokeBase(ctx(w), p.cardURL(), "summarize_config", "summarize the running configuration")
		w.Control(err == nil && res.Task != nil, "the base A2A invocation completes", errText(res), lastEx(res))
		w.Negative(!res.SchemaGoverned, "the result is marked not schema-governed", fmt.Sprintf("schema-governed %v", res.SchemaGoverned), lastEx(res))
	})
}
