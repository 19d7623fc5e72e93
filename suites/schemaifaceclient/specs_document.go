package schemaifaceclient

import (
	"fmt"
	"sort"
	"strings"

	sfx "github.com/extconf/extconf/fixtures/schemaifaceclient"
	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/refclients/skiface"
)

// refusal runs the positive control (the worked example on a correct stand-in is delegated), then the procedure
// against a stand-in serving bad, and asserts that no domain request reached it and that the client stopped
// locally with code.
func refusal(w *harness.W, row string, c *skiface.Client, bad *standin, code, expected string) *skiface.Result {
	good := exampleStandin(w, row)
	res, err := invokeExample(w, c, good)
	w.Control(err == nil && good.count("domain") == 1, "the same procedure against a correct agent delegates", errText(res), lastEx(res))
	start(w, row, bad)
	res, _ = invokeExample(w, c, bad)
	ok := bad.count("domain") == 0 && res.Err != nil && (code == "" || (res.Local && res.Err.Code == code))
	w.Negative(ok, expected+fmt.Sprintf("; no domain-skill request (local %s)", orAny(code)),
		fmt.Sprintf("%d domain requests at the agent; %s", bad.count("domain"), errText(res)), lastEx(res))
	return res
}

func orAny(code string) string {
	if code == "" {
		return "refusal"
	}
	return code
}

// tampered is the worked example with interaction.cancellable flipped while both carried digests stay the
// advertised (original) one.
func tampered() *skill {
	k := exampleSkill()
	k.doc = editDoc(sfx.ExampleDocument(), func(m map[string]any) { m["interaction"].(map[string]any)["cancellable"] = false })
	k.cardDigest = sfx.ExampleInterfaceDigest
	return k
}

// otherSkillDoc is a valid document for another skill id, served under the example's skill id.
func otherSkillDoc() *skill {
	k := exampleSkill()
	k.doc = editDoc(sfx.ExampleDocument(), func(m map[string]any) { m["skill_id"] = "assess_other_resource" })
	return k
}

// otherVersionDoc is a valid document with skill_version 1.1 while the card advertises 1.0.
func otherVersionDoc() *skill {
	k := exampleSkill()
	k.doc = editDoc(sfx.ExampleDocument(), func(m map[string]any) { m["skill_version"] = "1.1" })
	k.version = "1.0"
	return k
}

// badMode is the example with authority.default_mode outside the three values version 1.0 defines ("Version 1.0
// defines the following default_mode values"); digests coherent, every later step would accept it.
func badMode() []byte {
	return editDoc(sfx.ExampleDocument(), func(m map[string]any) { m["authority"].(map[string]any)["default_mode"] = "execute_with_approval" })
}

// extraMember is the example failing the standard schema where nothing later in the procedure would notice
// (badMode). (Its name predates issue #18: a document with an extra member is valid, the derived schema being
// open.)
func extraMember() *skill {
	k := exampleSkill()
	k.doc = badMode()
	return k
}

// embeddedDigestZeroed is the example whose input_schema digest is zeroed, the interface digest taken over the
// document as served: only a client checking each embedded schema against its declared digest finds it invalid.
func embeddedDigestZeroed() *skill {
	k := exampleSkill()
	k.doc = editDoc(sfx.ExampleDocument(), func(m map[string]any) {
		m["input_schema"].(map[string]any)["digest"] = "sha256:" + strings.Repeat("0", 64)
	})
	return k
}

func registerDocument(e *harness.Env) {
	spec(e, "SI-2.2b", "the reference client refuses a document whose calculated digest differs from the carried digests", func(w *harness.W) {
		const row = "SI-2.2b"
		refusal(w, row, newClient(w), &standin{skills: []*skill{tampered()}}, skiface.InterfaceInvalid,
			"a document altered after its digest was taken (card and describe_skill still carry the old digest) is rejected")
	})

	spec(e, "SI-9.22", "the reference client calculates the document digest and requires it to equal both the advertised and the returned value", func(w *harness.W) {
		const row = "SI-9.22"
		c := newClient(w)
		refusal(w, row, c, &standin{skills: []*skill{tampered()}}, skiface.InterfaceInvalid,
			"calculated digest ≠ advertised = returned: rejected")
		k := exampleSkill()
		k.retDigest = "sha256:" + strings.Repeat("ab", 32)
		bad := start(w, row, &standin{skills: []*skill{k}})
		res, _ := invokeExample(w, c, bad)
		w.Negative(bad.count("domain") == 0 && res.Err != nil && res.Err.Code == skiface.InterfaceInvalid,
			"calculated = advertised ≠ returned: rejected, no domain-skill request", errText(res), lastEx(res))
	})

	spec(e, "SI-12.11c", "the reference client does not accept a structurally valid document whose digest is not the advertised one", func(w *harness.W) {
		const row = "SI-12.11c"
		k := exampleSkill()
		k.doc = redigest(editDoc(sfx.ExampleDocument(), func(m map[string]any) {
			inputSchema(m)["properties"].(map[string]any)["resource_id"] = map[string]any{"type": "string", "maxLength": 64}
		}))
		k.cardDigest = sfx.ExampleInterfaceDigest // the card and describe_skill still name the example's digest
		if err := skiface.ValidateDocument(k.doc); err != nil {
			w.Failf(nil, "the substitute is a valid document", "%v", err)
		}
		refusal(w, row, newClient(w), &standin{skills: []*skill{k}}, skiface.InterfaceInvalid,
			"a valid substitute document for the same skill and version, but another digest, is rejected")
	})

	spec(e, "SI-7.1b", "the reference client digests JCS(resolution.schema), not the bytes as received", func(w *harness.W) {
		const row = "SI-7.1b"
		d, _ := skiface.ParseDocument(sfx.ExampleDocument())
		vectors := []string{
			"sha256:a593fb695fd727eaa36602d9b539e53e54cde50aec6f4b7df5d624b70148f26a",
			"sha256:11ee18a8c1ab8821e083d61298ef07c4f2ce2e29c3eafb82f4742f1e1e969bce",
			"sha256:3cf0d51c1d6e97d03fa80d5b9435c55d955f824bc9e58d053bb2095e18a0a8c4",
		}
		for i, nr := range d.References() {
			got, err := skiface.SchemaDigest(nr.Ref.Resolution.Schema)
			w.Check(err == nil && got == vectors[i], "the worked example's printed digest "+vectors[i], fmt.Sprintf("%s %v", got, err), nil)
		}
		k := exampleSkill()
		k.doc = scramble(sfx.ExampleDocument())
		k.raw = true
		s := start(w, row, &standin{skills: []*skill{k}})
		res, err := invokeExample(w, newClient(w), s)
		w.Check(err == nil && s.count("domain") == 1,
			"the example served with reordered members, extra whitespace and \\u0073 escapes (same JCS, same digests) is accepted", errText(res), lastEx(res))
	})

	spec(e, "SI-9.55a", "the reference client rejects a document failing the Skill Interface Schema and does not cache it", func(w *harness.W) {
		const row = "SI-9.55a"
		c := newClient(w)
		good := exampleStandin(w, row)
		res, err := invokeExample(w, c, good)
		w.Control(err == nil && c.CacheLen() == 1, "a valid document is accepted and cached", errText(res), lastEx(res))
		k := exampleSkill()
		k.doc = badMode()
		bad := start(w, row, &standin{skills: []*skill{k}})
		res, _ = invokeExample(w, c, bad)
		w.Negative(res.Err != nil && res.Err.Code == skiface.InterfaceInvalid && res.Local && c.CacheLen() == 1,
			"a document whose authority.default_mode is not one of the three defined values is rejected with interface_invalid and not cached",
			fmt.Sprintf("%s; cache holds %d documents", errText(res), c.CacheLen()), lastEx(res))
	})

	spec(e, "SI-9.62d", "the reference client does not delegate when the returned document cannot be validated", func(w *harness.W) {
		const row = "SI-9.62d"
		k := exampleSkill()
		k.doc = badMode()
		refusal(w, row, newClient(w), &standin{skills: []*skill{k}}, "", "a document failing the Skill Interface Schema stops the procedure")
	})

	spec(e, "SI-9.55b", "after detecting interface_invalid the reference client sends no domain-skill request", func(w *harness.W) {
		const row = "SI-9.55b"
		refusal(w, row, newClient(w), &standin{skills: []*skill{embeddedDigestZeroed()}}, skiface.InterfaceInvalid,
			"an embedded schema failing its declared digest makes the document invalid")
	})

	spec(e, "SI-12.10b", "the reference client validates with the unmodified standard schema and rejects what it rejects", func(w *harness.W) {
		const row = "SI-12.10b"
		refusal(w, row, newClient(w), &standin{skills: []*skill{extraMember()}}, skiface.InterfaceInvalid,
			"a document with authority.default_mode execute_with_approval, outside the standard structure, is rejected")
	})

	spec(e, "SI-12.9a", "the reference client integrity-checks its Skill Interface Schema copy and refuses to validate with a tampered one", func(w *harness.W) {
		const row = "SI-12.9a"
		s := exampleStandin(w, row)
		pristine := newClient(w)
		pristine.TrustedSchema = skiface.TrustedSchema()
		res, err := invokeExample(w, pristine, s)
		w.Control(err == nil && s.count("domain") == 1, "with the pristine packaged copy the procedure completes", errText(res), lastEx(res))
		tamperedCopy := strings.Replace(string(skiface.TrustedSchema()), `"skill_version",`, ``, 1)
		c := newClient(w)
		c.TrustedSchema = []byte(tamperedCopy)
		res, _ = invokeExample(w, c, s)
		w.Negative(res.Err != nil && res.Err.Step == skiface.StepIntegrity && s.count("domain") == 1,
			"a copy with one required member removed fails the pinned digest: the client refuses to validate and does not delegate",
			fmt.Sprintf("%s; %d domain requests in total", errText(res), s.count("domain")), lastEx(res))
	})

	spec(e, "SI-9.62c", "the reference client does not delegate on a document for another skill or another version", func(w *harness.W) {
		const row = "SI-9.62c"
		c := newClient(w)
		refusal(w, row, c, &standin{skills: []*skill{otherSkillDoc()}}, "", "a valid document naming another skill_id stops the procedure")
		bad := start(w, row, &standin{skills: []*skill{otherVersionDoc()}})
		res, _ := invokeExample(w, c, bad)
		w.Negative(bad.count("domain") == 0 && res.Err != nil, "a valid document with skill_version 1.1 while 1.0 is advertised stops the procedure",
			fmt.Sprintf("%d domain requests; %s", bad.count("domain"), errText(res)), lastEx(res))
	})

	spec(e, "SI-12.11a", "the reference client does not accept a valid document for a different skill_id", func(w *harness.W) {
		refusal(w, "SI-12.11a", newClient(w), &standin{skills: []*skill{otherSkillDoc()}}, skiface.InterfaceInvalid,
			"describe_skill(evaluate_resource_condition) answering with assess_other_resource's document (its own true digest) is rejected")
	})

	spec(e, "SI-12.11b", "the reference client does not accept a valid document for a different skill_version", func(w *harness.W) {
		refusal(w, "SI-12.11b", newClient(w), &standin{skills: []*skill{otherVersionDoc()}}, skiface.InterfaceInvalid,
			"a 1.1 document returned while 1.0 is advertised is rejected")
	})

	spec(e, "SI-9.52d", "the reference client reports unsupported_interface_version for another advertised or returned interface version", func(w *harness.W) {
		const row = "SI-9.52d"
		c := newClient(w)
		refusal(w, row, c, &standin{skills: []*skill{exampleSkill()}, interfaceVersion: "2.0"}, skiface.UnsupportedInterfaceVersion,
			"an extension advertising interface_version 2.0 is refused locally")
		k := exampleSkill()
		k.doc = editDoc(sfx.ExampleDocument(), func(m map[string]any) { m["interface_version"] = "2.0" })
		bad := start(w, row, &standin{skills: []*skill{k}})
		res, _ := invokeExample(w, c, bad)
		w.Negative(res.Err != nil && res.Err.Code == skiface.UnsupportedInterfaceVersion && bad.count("domain") == 0,
			"a returned document with interface_version 2.0: unsupported_interface_version, no domain-skill request", errText(res), lastEx(res))
	})
}

// scramble re-serializes a JSON document with members in reverse order, spaces after separators and every
// "string" value written with a \u0073 escape: different bytes, the same JCS form.
func scramble(doc []byte) []byte {
	v, err := decodeAny(doc)
	if err != nil {
		panic(err)
	}
	var b strings.Builder
	var enc func(v any)
	enc = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Sort(sort.Reverse(sort.StringSlice(keys)))
			b.WriteString("{ ")
			for i, k := range keys {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(mustJSON(k) + " : ")
				enc(x[k])
			}
			b.WriteString(" }")
		case []any:
			b.WriteString("[ ")
			for i, it := range x {
				if i > 0 {
					b.WriteString(", ")
				}
				enc(it)
			}
			b.WriteString(" ]")
		case string:
			if x == "string" {
				b.WriteString(`"\u0073tring"`)
				return
			}
			b.WriteString(mustJSON(x))
		default:
			b.WriteString(mustJSON(x))
		}
	}
	enc(v)
	return []byte(b.String())
}
