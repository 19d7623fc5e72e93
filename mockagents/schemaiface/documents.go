package schemaiface

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	sifx "github.com/extconf/extconf/fixtures/schemaiface"
	"github.com/extconf/extconf/refclients/skiface"
)

// The wire form of a Skill Interface Document, members in the order of the draft's structure figure.
type schemaRef struct {
	SchemaURI  string     `json:"schema_uri"`
	Version    string     `json:"version"`
	Dialect    string     `json:"dialect"`
	Digest     string     `json:"digest"`
	Resolution resolution `json:"resolution"`
}

type resolution struct {
	Type   string          `json:"type"`
	Schema json.RawMessage `json:"schema,omitempty"`
}

type recordSchema struct {
	Kind            string    `json:"kind"`
	SchemaReference schemaRef `json:"schema_reference"`
}

type document struct {
	InterfaceVersion        string          `json:"interface_version"`
	SkillID                 string          `json:"skill_id"`
	SkillVersion            string          `json:"skill_version"`
	InputSchema             schemaRef       `json:"input_schema"`
	OutputSchema            schemaRef       `json:"output_schema"`
	SupportingRecordSchemas []recordSchema  `json:"supporting_record_schemas"`
	Interaction             json.RawMessage `json:"interaction"`
	Authority               json.RawMessage `json:"authority"`
}

// digestFn computes a Schema Reference digest; sabotage swaps it.
type digestFn func(schema json.RawMessage) string

func jcsDigest(schema json.RawMessage) string {
	d, err := skiface.SchemaDigest(schema)
	if err != nil {
		panic("schemaiface: fixture schema is not JCS-able: " + err.Error()) // fixtures are ours
	}
	return d
}

func ref(s sifx.SchemaSource, dg digestFn) schemaRef {
	return schemaRef{SchemaURI: s.SchemaURI, Version: s.Version, Dialect: s.Dialect, Digest: dg(s.Schema),
		Resolution: resolution{Type: "inline", Schema: s.Schema}}
}

// assemble builds the Skill Interface Document of a skill source: the agent protocol service's job. It is done
// once at start-up; describe_skill only ever returns what was assembled here.
func assemble(s sifx.SkillSource, dg digestFn) []byte {
	d := document{InterfaceVersion: skiface.InterfaceVersion, SkillID: s.SkillID, SkillVersion: s.SkillVersion,
		InputSchema: ref(s.Input, dg), OutputSchema: ref(s.Output, dg), SupportingRecordSchemas: []recordSchema{},
		Interaction: s.Interaction, Authority: s.Authority}
	for _, r := range s.Records {
		d.SupportingRecordSchemas = append(d.SupportingRecordSchemas, recordSchema{Kind: r.Kind, SchemaReference: ref(r.SchemaSource, dg)})
	}
	return mustJSON(d)
}

func interfaceDigest(doc []byte) string {
	d, err := skiface.InterfaceDigest(doc)
	if err != nil {
		panic("schemaiface: document is not JCS-able: " + err.Error())
	}
	return d
}

func mustJSON(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic("schemaiface: " + err.Error())
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}

// tree decodes JSON for editing, numbers kept exact.
func tree(b []byte) map[string]any {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		panic("schemaiface: " + err.Error())
	}
	return m
}

// obj walks a decoded tree along object members.
func obj(m map[string]any, path ...string) map[string]any {
	cur := m
	for _, p := range path {
		cur, _ = cur[p].(map[string]any)
		if cur == nil {
			panic("schemaiface: no object at " + strings.Join(path, "/"))
		}
	}
	return cur
}

// editSchema rewrites a source schema through its decoded tree.
func editSchema(s *sifx.SchemaSource, f func(m map[string]any)) {
	m := tree(s.Schema)
	f(m)
	s.Schema = mustJSON(m)
}

func editJSON(raw json.RawMessage, f func(m map[string]any)) json.RawMessage {
	m := tree(raw)
	f(m)
	return mustJSON(m)
}

// withVersion is the same document under another skill_version (a revision whose only change is its version).
func withVersion(doc []byte, v string) []byte {
	m := tree(doc)
	m["skill_version"] = v
	return mustJSON(m)
}

func describeString(doc []byte) string {
	var b bytes.Buffer
	if err := json.Indent(&b, doc, "", "  "); err != nil {
		return string(doc)
	}
	return b.String()
}

var _ = fmt.Sprintf
