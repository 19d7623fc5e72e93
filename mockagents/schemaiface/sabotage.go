package schemaiface

import (
	"bytes"
	"encoding/json"
	"strings"

	sifx "github.com/extconf/extconf/fixtures/schemaiface"
	"github.com/extconf/extconf/refclients/skiface"
	"github.com/extconf/extconf/sabotage"
)

// sabotageSource changes a skill's real domain schemas or declarations before assembly: the agent then
// validates with, and publishes, the changed document (its digests are honest).
func (a *agent) sabotageSource(s *sifx.SkillSource) {
	on := a.set.On
	switch s.SkillID {
	case skillManage:
		if on(sabotage.SIApprovalFlagFalse) {
			s.Authority = editJSON(s.Authority, func(m map[string]any) { m["approval_may_be_required"] = false })
		}
		if on(sabotage.SIMultiopNoOperationBranch) {
			editSchema(&s.Input, func(m map[string]any) { delete(m, "if"); delete(m, "then") })
		}
		if on(sabotage.SIMultiopSelectorOptional) {
			editSchema(&s.Input, func(m map[string]any) { m["required"] = []any{"resource_id"} })
		}
		if on(sabotage.SIMultiopSelectorUnenumerated) {
			editSchema(&s.Input, func(m map[string]any) {
				obj(m, "properties")["operation"] = map[string]any{"type": "string", "description": "the operation to perform"}
			})
		}
	case skillMeasure:
		if on(sabotage.SIConstraintInMetadata) {
			editSchema(&s.Input, func(m map[string]any) { delete(obj(m, "properties"), "max_age_seconds") })
		}
		if on(sabotage.SIConstraintUnvalidated) {
			editSchema(&s.Input, func(m map[string]any) { obj(m, "properties")["window_seconds"] = map[string]any{} })
		}
	case skillBrokenInit:
		if on(sabotage.SIInitOpaqueFallback) {
			s.Input.Schema, s.Output.Schema = json.RawMessage("true"), json.RawMessage("true")
		}
	}
}

// sabotagePublished derives the document the agent serves and advertises from the one it validated. Unless a
// toggle says otherwise the two are the same bytes.
func (a *agent) sabotagePublished(s sifx.SkillSource, doc []byte) []byte {
	on := a.set.On
	schemaLevel := on(sabotage.SISchemaDigestNonJCS) || on(sabotage.SISchemaDigestUppercaseHex) ||
		(s.SkillID == skillManage && (on(sabotage.SISchemaEmbeddedOtherDialect) || on(sabotage.SISchemaEmbeddedRelativeID) || on(sabotage.SISchemaVersionReusedWithNewDigest))) ||
		(s.SkillID == skillMeasure && (on(sabotage.SISchemaExternalRef) || on(sabotage.SIDocumentKindEqualsSkillID))) ||
		(s.SkillID == skillEvaluate && (on(sabotage.SISchemaVersionLatest) || on(sabotage.SISchemaVersionRange) || on(sabotage.SIDocumentDuplicateKind)))
	if schemaLevel {
		dg := digestFn(jcsDigest)
		if on(sabotage.SISchemaDigestNonJCS) {
			dg = func(schema json.RawMessage) string {
				var b bytes.Buffer
				_ = json.Indent(&b, schema, "", "    ")
				return skiface.DigestBytes(b.Bytes())
			}
		}
		if on(sabotage.SISchemaDigestUppercaseHex) {
			inner := dg
			dg = func(schema json.RawMessage) string {
				return "sha256:" + strings.ToUpper(strings.TrimPrefix(inner(schema), "sha256:"))
			}
		}
		switch s.SkillID {
		case skillManage:
			if on(sabotage.SISchemaEmbeddedOtherDialect) {
				editSchema(&s.Input, func(m map[string]any) {
					obj(m, "$defs", "common")["$schema"] = "http://json-schema.org/draft-07/schema#"
				})
			}
			if on(sabotage.SISchemaEmbeddedRelativeID) {
				editSchema(&s.Input, func(m map[string]any) {
					obj(m, "$defs", "common")["$id"] = "common.json"
					obj(m, "properties", "resource_id")["$ref"] = "common.json#/$defs/resource_id"
				})
			}
			if on(sabotage.SISchemaVersionReusedWithNewDigest) {
				s.Output.SchemaURI, s.Output.Version = "urn:example:resource-condition:output:1.0", "1.0"
			}
		case skillMeasure:
			if on(sabotage.SISchemaExternalRef) {
				editSchema(&s.Input, func(m map[string]any) {
					obj(m, "properties")["unit"] = map[string]any{"$ref": "https://schemas.example/common.json#/$defs/unit"}
				})
			}
			if on(sabotage.SIDocumentKindEqualsSkillID) {
				s.Records = append([]sifx.RecordSource(nil), s.Records...)
				s.Records[0].Kind = skillMeasure
			}
		case skillEvaluate:
			if on(sabotage.SISchemaVersionLatest) {
				s.Output.Version = "latest"
			}
			if on(sabotage.SISchemaVersionRange) {
				s.Input.Version = "1.x"
			}
			if on(sabotage.SIDocumentDuplicateKind) {
				s.Records = append(s.Records, s.Records[0])
			}
		}
		doc = assemble(s, dg)
	}

	m := tree(doc)
	changed := false
	edit := func(f func()) { f(); changed = true }
	if on(sabotage.SIDocumentExtraMember) {
		// (toggle id kept; since issue #18 extra members are valid) supported_response_modes as one string where
		// the structure has an array (figure: supported_response_modes[])
		edit(func() { obj(m, "interaction")["supported_response_modes"] = "sync,stream" })
	}
	if on(sabotage.SIDescribeRedefineStructure) {
		edit(func() {
			m["input"], m["output"] = m["input_schema"], m["output_schema"]
			delete(m, "input_schema")
			delete(m, "output_schema")
		})
	}
	switch s.SkillID {
	case skillManage:
		if on(sabotage.SIDescribeInvalidDocument) {
			edit(func() { delete(m, "output_schema") })
		}
		if on(sabotage.SIDocumentAuthorityExtraMode) {
			edit(func() { obj(m, "authority")["default_mode"] = "execute_with_approval" })
		}
	case skillEvaluate:
		if on(sabotage.SISchemaExternalLocator) {
			edit(func() {
				obj(m, "output_schema")["resolution"] = map[string]any{"type": "inline", "uri": "https://schemas.example/out.json"}
			})
		}
		if on(sabotage.SISchemaOmitInlineSchema) {
			edit(func() { obj(m, "input_schema")["resolution"] = map[string]any{"type": "inline"} })
		}
		if on(sabotage.SISchemaResolutionTypeURI) {
			edit(func() { obj(m, "output_schema", "resolution")["type"] = "uri" })
		}
		if on(sabotage.SICardAdvertisesRemovedVersion) {
			edit(func() { m["skill_version"] = "1.1" })
		}
	}
	if !changed {
		return doc
	}
	return mustJSON(m)
}
