package schemaiface

import (
	"bytes"
	"encoding/json"
	"strings"

	sifx "github.com/extconf/extconf/fixtures/schemaiface"
	"github.com/extconf/extconf/harness/verify/skiface"
)

// sabotageSource changes a skill's real domain schemas or declarations before assembly: the agent then
// validates with, and publishes, the changed document (its digests are honest).
func (a *agent) sabotageSource(s *sifx.SkillSource) {
	on := a.set.On
	switch s.SkillID {
	case skillManage:
		if on("si.approval-flag-false") {
			s.Authority = editJSON(s.Authority, func(m map[string]any) { m["approval_may_be_required"] = false })
		}
		if on("si.multiop-no-operation-branch") {
			editSchema(&s.Input, func(m map[string]any) { delete(m, "if"); delete(m, "then") })
		}
		if on("si.multiop-selector-optional") {
			editSchema(&s.Input, func(m map[string]any) { m["required"] = []any{"resource_id"} })
		}
		if on("si.multiop-selector-unenumerated") {
			editSchema(&s.Input, func(m map[string]any) {
				obj(m, "properties")["operation"] = map[string]any{"type": "string", "description": "the operation to perform"}
			})
		}
	case skillMeasure:
		if on("si.constraint-in-metadata") {
			editSchema(&s.Input, func(m map[string]any) { delete(obj(m, "properties"), "max_age_seconds") })
		}
		if on("si.constraint-unvalidated") {
			editSchema(&s.Input, func(m map[string]any) { obj(m, "properties")["window_seconds"] = map[string]any{} })
		}
	case skillBrokenInit:
		if on("si.init-opaque-fallback") {
			s.Input.Schema, s.Output.Schema = json.RawMessage("true"), json.RawMessage("true")
		}
	}
}

// sabotagePublished derives the document the agent serves and advertises from the one it validated. Unless a
// toggle says otherwise the two are the same bytes.
func (a *agent) sabotagePublished(s sifx.SkillSource, doc []byte) []byte {
	on := a.set.On
	schemaLevel := on("si.schema-digest-non-jcs") || on("si.schema-digest-uppercase-hex") ||
		(s.SkillID == skillManage && (on("si.schema-embedded-other-dialect") || on("si.schema-embedded-relative-id") || on("si.schema-version-reused-with-new-digest"))) ||
		(s.SkillID == skillMeasure && (on("si.schema-external-ref") || on("si.document-kind-equals-skill-id"))) ||
		(s.SkillID == skillEvaluate && (on("si.schema-version-latest") || on("si.schema-version-range") || on("si.document-duplicate-kind")))
	if schemaLevel {
		dg := digestFn(jcsDigest)
		if on("si.schema-digest-non-jcs") {
			dg = func(schema json.RawMessage) string {
				var b bytes.Buffer
				_ = json.Indent(&b, schema, "", "    ")
				return skiface.DigestBytes(b.Bytes())
			}
		}
		if on("si.schema-digest-uppercase-hex") {
			inner := dg
			dg = func(schema json.RawMessage) string {
				return "sha256:" + strings.ToUpper(strings.TrimPrefix(inner(schema), "sha256:"))
			}
		}
		switch s.SkillID {
		case skillManage:
			if on("si.schema-embedded-other-dialect") {
				editSchema(&s.Input, func(m map[string]any) {
					obj(m, "$defs", "common")["$schema"] = "http://json-schema.org/draft-07/schema#"
				})
			}
			if on("si.schema-embedded-relative-id") {
				editSchema(&s.Input, func(m map[string]any) {
					obj(m, "$defs", "common")["$id"] = "common.json"
					obj(m, "properties", "resource_id")["$ref"] = "common.json#/$defs/resource_id"
				})
			}
			if on("si.schema-version-reused-with-new-digest") {
				s.Output.SchemaURI, s.Output.Version = "urn:example:resource-condition:output:1.0", "1.0"
			}
		case skillMeasure:
			if on("si.schema-external-ref") {
				editSchema(&s.Input, func(m map[string]any) {
					obj(m, "properties")["unit"] = map[string]any{"$ref": "https://schemas.example/common.json#/$defs/unit"}
				})
			}
			if on("si.document-kind-equals-skill-id") {
				s.Records = append([]sifx.RecordSource(nil), s.Records...)
				s.Records[0].Kind = skillMeasure
			}
		case skillEvaluate:
			if on("si.schema-version-latest") {
				s.Output.Version = "latest"
			}
			if on("si.schema-version-range") {
				s.Input.Version = "1.x"
			}
			if on("si.document-duplicate-kind") {
				s.Records = append(s.Records, s.Records[0])
			}
		}
		doc = assemble(s, dg)
	}

	m := tree(doc)
	changed := false
	edit := func(f func()) { f(); changed = true }
	if on("si.document-extra-member") {
		// (toggle id kept; since issue #18 extra members are valid) supported_response_modes as one string where
		// the structure has an array (figure: supported_response_modes[])
		edit(func() { obj(m, "interaction")["supported_response_modes"] = "sync,stream" })
	}
	if on("si.describe-redefine-structure") {
		edit(func() {
			m["input"], m["output"] = m["input_schema"], m["output_schema"]
			delete(m, "input_schema")
			delete(m, "output_schema")
		})
	}
	switch s.SkillID {
	case skillManage:
		if on("si.describe-invalid-document") {
			edit(func() { delete(m, "output_schema") })
		}
		if on("si.document-authority-extra-mode") {
			edit(func() { obj(m, "authority")["default_mode"] = "execute_with_approval" })
		}
	case skillEvaluate:
		if on("si.schema-external-locator") {
			edit(func() {
				obj(m, "output_schema")["resolution"] = map[string]any{"type": "inline", "uri": "https://schemas.example/out.json"}
			})
		}
		if on("si.schema-omit-inline-schema") {
			edit(func() { obj(m, "input_schema")["resolution"] = map[string]any{"type": "inline"} })
		}
		if on("si.schema-resolution-type-uri") {
			edit(func() { obj(m, "output_schema", "resolution")["type"] = "uri" })
		}
		if on("si.card-advertises-removed-version") {
			edit(func() { m["skill_version"] = "1.1" })
		}
	}
	if !changed {
		return doc
	}
	return mustJSON(m)
}
