package schemaifaceclient

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	sfx "github.com/extconf/extconf/fixtures/schemaifaceclient"
	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/refclients/skiface"
)

// What the reference client puts on the wire: the request objects, their Messages and the activation.
func registerRequests(e *harness.Env) {
	one := func(w *harness.W, row string, list []sent, what string) sent {
		if len(list) == 0 { // the counterpart stopped the procedure before it (see fullRun)
			w.Control(false, "the procedure reaches its "+what, "none sent", nil)
		}
		w.Check(len(list) == 1, "the procedure sends exactly one "+what, fmt.Sprintf("%d sent", len(list)), nil)
		return list[0]
	}

	spec(e, "SI-2.1c", "the reference client's domain-skill request carries the interface digest advertised in the card and returned by describe_skill", func(w *harness.W) {
		const row = "SI-2.1c"
		res := fullRun(w, row, pickSubject(w, row))
		d := one(w, row, domains(res), "domain-skill request")
		got := str(d.data["interface_digest"])
		w.Check(got == res.InterfaceDigest && got == res.Interface.Digest && skiface.IsDigest(got),
			"data.interface_digest equals the card's and describe_skill's interface_digest "+res.InterfaceDigest,
			fmt.Sprintf("interface_digest %q", got), d.ex)
	})

	spec(e, "SI-4.1b", "the reference client carries describe_skill and domain-skill requests as one Data Part holding the request object", func(w *harness.W) {
		const row = "SI-4.1b"
		res := fullRun(w, row, pickSubject(w, row))
		for _, s := range append(describes(res), domains(res)...) {
			ok := len(s.msg.Parts) == 1 && len(s.msg.Parts[0].Data) > 0 && s.data != nil && str(s.data["skill"]) != ""
			w.Check(ok, "a Message with exactly one Data Part whose data is a request object {skill, …}",
				fmt.Sprintf("%d parts, data %s", len(s.msg.Parts), partsText(s.msg)), s.ex)
		}
		w.Check(len(describes(res)) == 1 && len(domains(res)) == 1, "one describe_skill and one domain-skill request",
			fmt.Sprintf("%d and %d", len(describes(res)), len(domains(res))), lastEx(res))
		// The same mapping over HTTP+JSON, streamed and then retrieved with GetTask.
		s := exampleStandin(w, row)
		c := newClient(w)
		c.Binding = a2a.BindingHTTPJSON
		res, err := c.Invoke(ctx(w), skiface.Request{CardURL: s.cardURL(), SkillID: sfx.ExampleSkill, Arguments: sfx.ExampleArguments(), Stream: true, Poll: true})
		w.Check(err == nil && res.Output != nil, "over HTTP+JSON with a streamed, then polled, domain task the procedure completes", errText(res), lastEx(res))
		for _, q := range append(describes(res), domains(res)...) {
			ok := len(q.msg.Parts) == 1 && len(q.msg.Parts[0].Data) > 0 && str(q.data["skill"]) != ""
			w.Check(ok, "HTTP+JSON "+q.method+": one Data Part holding the request object", partsText(q.msg), q.ex)
		}
	})

	header := func(row, kind string, pick func(*skiface.Result) []sent) func(w *harness.W) {
		return func(w *harness.W) {
			res := fullRun(w, row, pickSubject(w, row))
			s := one(w, row, pick(res), kind)
			h := s.ex.RequestHeader.Get(a2a.HeaderExtensions)
			w.Check(slices.Contains(splitList(h), skiface.ExtensionURI), "A2A-Extensions: "+skiface.ExtensionURI,
				fmt.Sprintf("A2A-Extensions: %q", h), s.ex)
		}
	}
	spec(e, "SI-9.3a", "the reference client activates the extension with the A2A-Extensions header on describe_skill", header("SI-9.3a", "describe_skill request", describes))
	spec(e, "SI-9.3b", "the reference client activates the extension with the A2A-Extensions header on domain-skill requests", header("SI-9.3b", "domain-skill request", domains))

	spec(e, "SI-9.4", "the reference client lists the extension URI in Message.extensions of every request-object Message", func(w *harness.W) {
		const row = "SI-9.4"
		res := fullRun(w, row, pickSubject(w, row))
		all := append(describes(res), domains(res)...)
		w.Check(len(all) == 2, "a describe_skill and a domain-skill request", fmt.Sprint(len(all)), lastEx(res))
		for _, s := range all {
			w.Check(slices.Contains(s.msg.Extensions, skiface.ExtensionURI), "message.extensions contains "+skiface.ExtensionURI,
				fmt.Sprintf("%q", s.msg.Extensions), s.ex)
		}
	})

	spec(e, "SI-9.15a", "the reference client calls describe_skill with SendMessage or SendStreamingMessage", func(w *harness.W) {
		const row = "SI-9.15a"
		res := fullRun(w, row, pickSubject(w, row))
		s := one(w, row, describes(res), "describe_skill request")
		ok := s.method == a2a.MethodSendMessage || s.method == a2a.MethodSendStreamingMessage || s.method == "message:send" || s.method == "message:stream"
		w.Check(ok, "JSON-RPC SendMessage / SendStreamingMessage or HTTP+JSON message:send / message:stream", "method "+s.method, s.ex)
	})

	spec(e, "SI-9.15b", "the reference client's describe_skill Message has role ROLE_USER", func(w *harness.W) {
		const row = "SI-9.15b"
		res := fullRun(w, row, pickSubject(w, row))
		s := one(w, row, describes(res), "describe_skill request")
		w.Check(s.msg.Role == a2a.RoleUser, "role "+a2a.RoleUser, "role "+s.msg.Role, s.ex)
	})

	spec(e, "SI-9.15c", "the reference client's describe_skill Message holds exactly one part, a Data Part", func(w *harness.W) {
		const row = "SI-9.15c"
		res := fullRun(w, row, pickSubject(w, row))
		s := one(w, row, describes(res), "describe_skill request")
		w.Check(len(s.msg.Parts) == 1 && len(s.msg.Parts[0].Data) > 0, "exactly one part, with data",
			fmt.Sprintf("%d parts: %s", len(s.msg.Parts), partsText(s.msg)), s.ex)
	})

	spec(e, "SI-9.16", "the reference client's describe_skill data is exactly {skill: describe_skill, arguments: {skill_id}}", func(w *harness.W) {
		const row = "SI-9.16"
		sub := pickSubject(w, row)
		res := fullRun(w, row, sub)
		s := one(w, row, describes(res), "describe_skill request")
		var got any
		if len(s.msg.Parts) > 0 {
			_ = json.Unmarshal(s.msg.Parts[len(s.msg.Parts)-1].Data, &got)
		}
		want := map[string]any{"skill": "describe_skill", "arguments": map[string]any{"skill_id": sub.skill}}
		w.Check(reflect.DeepEqual(got, want), fmt.Sprintf("data %s", mustJSON(want)), "data "+mustJSON(got), s.ex)
	})

	spec(e, "SI-9.30", "the reference client's domain-skill Message has role ROLE_USER and exactly one part, a Data Part", func(w *harness.W) {
		const row = "SI-9.30"
		res := fullRun(w, row, pickSubject(w, row))
		s := one(w, row, domains(res), "domain-skill request")
		w.Check(s.msg.Role == a2a.RoleUser && len(s.msg.Parts) == 1 && len(s.msg.Parts[0].Data) > 0,
			"role ROLE_USER, one Data Part", fmt.Sprintf("role %s, %d parts: %s", s.msg.Role, len(s.msg.Parts), partsText(s.msg)), s.ex)
	})

	spec(e, "SI-9.31", "the reference client's skill request object has exactly skill, skill_version, interface_digest and an arguments object", func(w *harness.W) {
		const row = "SI-9.31"
		res := fullRun(w, row, pickSubject(w, row))
		s := one(w, row, domains(res), "domain-skill request")
		var keys []string
		for k := range s.data {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		types := len(s.data["arguments"]) > 0 && s.data["arguments"][0] == '{' && str(s.data["skill"]) != "" &&
			str(s.data["skill_version"]) != "" && str(s.data["interface_digest"]) != ""
		w.Check(reflect.DeepEqual(keys, []string{"arguments", "interface_digest", "skill", "skill_version"}) && types,
			"members arguments (object), interface_digest, skill, skill_version (strings)", fmt.Sprintf("members %v: %s", keys, partsText(s.msg)), s.ex)
	})

	spec(e, "SI-9.32", "the reference client names the skill by its AgentSkill id, not its human name", func(w *harness.W) {
		const row = "SI-9.32"
		s := exampleStandin(w, row) // its AgentSkill name differs from the id
		res := fullRun(w, row, subject{cardURL: s.cardURL(), skill: sfx.ExampleSkill, args: sfx.ExampleArguments(), client: newClient(w)})
		d := one(w, row, domains(res), "domain-skill request")
		w.Check(str(d.data["skill"]) == sfx.ExampleSkill, "skill "+sfx.ExampleSkill+" (the name is \"Evaluate resource condition\")",
			"skill "+string(d.data["skill"]), d.ex)
	})

	spec(e, "SI-9.33a", "the reference client sends the skill_version advertised, returned and validated", func(w *harness.W) {
		const row = "SI-9.33a"
		res := fullRun(w, row, pickSubject(w, row))
		d := one(w, row, domains(res), "domain-skill request")
		got := str(d.data["skill_version"])
		w.Check(got == res.SkillVersion && got == res.Interface.Verified.Doc.SkillVersion,
			"skill_version "+res.SkillVersion+" (card and document)", "skill_version "+string(d.data["skill_version"]), d.ex)
	})

	spec(e, "SI-9.33b", "the reference client sends the interface_digest advertised, returned and validated", func(w *harness.W) {
		const row = "SI-9.33b"
		res := fullRun(w, row, pickSubject(w, row))
		d := one(w, row, domains(res), "domain-skill request")
		got := str(d.data["interface_digest"])
		w.Check(got == res.InterfaceDigest && got == res.Interface.Verified.Digest,
			"interface_digest "+res.InterfaceDigest+" (card, describe_skill, calculated)", "interface_digest "+string(d.data["interface_digest"]), d.ex)
	})

	spec(e, "SI-8.9", "the reference client sends only caller input that validates against input_schema", func(w *harness.W) {
		const row = "SI-8.9"
		s := exampleStandin(w, row)
		c := newClient(w)
		res, err := invokeExample(w, c, s)
		w.Control(err == nil && len(domains(res)) == 1, "valid arguments are delegated", errText(res), lastEx(res))
		bad := json.RawMessage(`{"resource_id":"network-resource-123","condition":{"metric":"utilization","operator":"gte","threshold":80}}`)
		res, _ = c.Invoke(ctx(w), skiface.Request{CardURL: s.cardURL(), SkillID: sfx.ExampleSkill, Arguments: bad})
		w.Negative(len(domains(res)) == 0 && res.Err != nil && res.Err.Code == skiface.InputInvalid && res.Local,
			"arguments missing condition.unit are not sent; the client reports input_invalid locally",
			fmt.Sprintf("%d domain requests; %s", len(domains(res)), errText(res)), lastEx(res))
	})

	spec(e, "SI-9.36", "the arguments the reference client sends are the complete caller input and validate against input_schema", func(w *harness.W) {
		const row = "SI-9.36"
		sub := pickSubject(w, row)
		res := fullRun(w, row, sub)
		d := one(w, row, domains(res), "domain-skill request")
		vs := res.Interface.Verified.Input.ValidateJSON(d.data["arguments"])
		a, _ := skiface.JCS(d.data["arguments"])
		b, _ := skiface.JCS(sub.args)
		w.Check(len(vs) == 0 && string(a) == string(b), "the sent arguments equal the caller's input and validate",
			fmt.Sprintf("violations %v; sent %s", vs, d.data["arguments"]), d.ex)
		// An input failing the schema never reaches the wire.
		s := exampleStandin(w, row)
		bad := json.RawMessage(`{"resource_id":"r","condition":{"metric":"m","operator":"gte","threshold":"eighty","unit":"percent"}}`)
		res2, _ := newClient(w).Invoke(ctx(w), skiface.Request{CardURL: s.cardURL(), SkillID: sfx.ExampleSkill, Arguments: bad})
		for _, d := range domains(res2) {
			vs := res.Interface.Verified.Input.ValidateJSON(d.data["arguments"])
			w.Check(len(vs) == 0, "every arguments value sent validates against input_schema", fmt.Sprintf("sent %s: %v", d.data["arguments"], vs), d.ex)
		}
		w.Check(s.count("domain") == 0, "the non-validating input is not delegated", fmt.Sprintf("%d domain requests at the stand-in", s.count("domain")), lastEx(res2))
	})

	spec(e, "SI-9.61a", "the reference client delegates only after obtaining and validating the target's document through describe_skill", func(w *harness.W) {
		const row = "SI-9.61a"
		res := fullRun(w, row, pickSubject(w, row))
		ds, dm := describes(res), domains(res)
		ok := len(ds) == 1 && len(dm) == 1 && ds[0].ex.Seq < dm[0].ex.Seq && res.Interface != nil && res.Interface.Verified != nil && !res.Interface.FromCache
		w.Check(ok, "a fresh client sends describe_skill, validates the document, then delegates",
			fmt.Sprintf("%d describe_skill, %d domain requests; document held: %v", len(ds), len(dm), res.Interface != nil), lastEx(res))
	})

	spec(e, "SI-9.10a", "the reference client sends the advertised skill_version and never infers a compatible version range", func(w *harness.W) {
		const row = "SI-9.10a"
		doc := redigest(editDoc(sfx.ExampleDocument(), func(m map[string]any) { m["skill_version"] = "1.2" }))
		k := exampleSkill()
		k.doc = doc
		s := start(w, row, &standin{skills: []*skill{k}})
		c := newClient(w)
		res, err := c.Invoke(ctx(w), skiface.Request{CardURL: s.cardURL(), SkillID: sfx.ExampleSkill, Version: "1.2", Arguments: sfx.ExampleArguments()})
		w.Control(err == nil && len(domains(res)) == 1 && str(domains(res)[0].data["skill_version"]) == "1.2", "asking for the advertised 1.2 delegates with skill_version 1.2", errText(res), lastEx(res))
		res, _ = c.Invoke(ctx(w), skiface.Request{CardURL: s.cardURL(), SkillID: sfx.ExampleSkill, Version: "1.0", Arguments: sfx.ExampleArguments()})
		var versions []string
		for _, d := range domains(res) {
			versions = append(versions, str(d.data["skill_version"]))
		}
		w.Negative(!slices.Contains(versions, "1.0") && res.Err != nil,
			"asking for 1.0 while the card advertises 1.2 is refused locally; skill_version 1.0 is never sent",
			fmt.Sprintf("skill_version sent: %v; %s", versions, errText(res)), lastEx(res))
	})

	spec(e, "SI-9.10b", "the reference client's describe_skill carries only skill_id: no version or negotiation parameter", func(w *harness.W) {
		const row = "SI-9.10b"
		s := exampleStandin(w, row)
		c := newClient(w)
		res, err := c.Invoke(ctx(w), skiface.Request{CardURL: s.cardURL(), SkillID: sfx.ExampleSkill, Version: "1.0", Arguments: sfx.ExampleArguments()})
		w.Control(err == nil, "the advertised version is delegated", errText(res), lastEx(res))
		for _, d := range describes(res) {
			var args map[string]any
			_ = json.Unmarshal(d.data["arguments"], &args)
			w.Check(len(args) == 1 && args["skill_id"] == sfx.ExampleSkill, `arguments {"skill_id": …} only`, "arguments "+string(d.data["arguments"]), d.ex)
		}
		res, _ = newClient(w).Invoke(ctx(w), skiface.Request{CardURL: s.cardURL(), SkillID: sfx.ExampleSkill, Version: "2.0", Arguments: sfx.ExampleArguments()})
		w.Negative(len(describes(res)) == 0 && res.Err != nil && res.Local, "an unadvertised version 2.0 is refused locally without negotiating",
			fmt.Sprintf("%d describe_skill requests; %s", len(describes(res)), errText(res)), lastEx(res))
	})
}

func splitList(h string) []string {
	var out []string
	for _, p := range strings.Split(h, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func partsText(m a2a.Message) string {
	b, _ := json.Marshal(m.Parts)
	return clip(string(b), 300)
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
