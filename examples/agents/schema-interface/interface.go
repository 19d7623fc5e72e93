package main

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/gowebpki/jcs"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// dialect is the JSON Schema every domain schema is written in.
const dialect = "https://json-schema.org/draft/2020-12/schema"

//go:embed schemas/*.json
var packaged embed.FS

// skill is one schema-governed skill: its immutable, validated Skill Interface Document, the document's digest and
// the compiled domain validators.
type skill struct {
	id, version string
	doc         map[string]any
	digest      string
	input       *jsonschema.Schema
	output      *jsonschema.Schema
	records     map[string]*jsonschema.Schema // kind → record schema
}

// spec is what the skill's owner supplies: identity, the packaged domain schemas and the declarations.
type spec struct {
	id, version, input, output string
	records                    map[string]string // kind → packaged file
	modes                      []string
	authority                  string
	inputURN, outputURN        string
}

// assemble builds, validates and retains the Skill Interface Document of one skill ("Agent initialization" steps
// 2 to 5). A skill that fails is not advertised.
func assemble(s spec) (*skill, error) {
	sk := &skill{id: s.id, version: s.version, records: map[string]*jsonschema.Schema{}}
	in, err := reference(s.inputURN, s.input)
	if err != nil {
		return nil, err
	}
	out, err := reference(s.outputURN, s.output)
	if err != nil {
		return nil, err
	}
	recs := []any{} // one record kind per skill here; a skill with several would sort them for a stable digest
	for kind, file := range s.records {
		ref, err := reference("urn:example-net:record:"+kind+":1.0", file)
		if err != nil {
			return nil, err
		}
		recs = append(recs, map[string]any{"kind": kind, "schema_reference": ref})
	}
	doc := map[string]any{
		"interface_version": "1.0", "skill_id": s.id, "skill_version": s.version,
		"input_schema": in, "output_schema": out, "supporting_record_schemas": recs,
		"interaction": map[string]any{"supported_response_modes": s.modes, "cancellable": false},
		"authority":   map[string]any{"default_mode": s.authority, "approval_may_be_required": false},
	}
	// Round-trip through JSON so the retained document is exactly the value that is served and digested.
	raw, _ := json.Marshal(doc)
	if err := json.Unmarshal(raw, &sk.doc); err != nil {
		return nil, err
	}
	if err := check(sk.doc); err != nil {
		return nil, fmt.Errorf("%s: %w", s.id, err)
	}
	if sk.digest, err = digest(sk.doc); err != nil {
		return nil, err
	}
	if sk.input, err = compile(sk.doc["input_schema"]); err != nil {
		return nil, err
	}
	if sk.output, err = compile(sk.doc["output_schema"]); err != nil {
		return nil, err
	}
	for _, r := range sk.doc["supporting_record_schemas"].([]any) {
		e := r.(map[string]any)
		if sk.records[e["kind"].(string)], err = compile(e["schema_reference"]); err != nil {
			return nil, err
		}
	}
	return sk, nil
}

// reference loads a packaged schema and wraps it in a Schema Reference with its content digest.
func reference(urn, file string) (map[string]any, error) {
	b, err := packaged.ReadFile("schemas/" + file)
	if err != nil {
		return nil, err
	}
	var schema any
	if err := json.Unmarshal(b, &schema); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	d, err := digest(schema)
	if err != nil {
		return nil, err
	}
	return map[string]any{
		"schema_uri": urn, "version": "1.0", "dialect": dialect, "digest": d,
		"resolution": map[string]any{"type": "inline", "schema": schema},
	}, nil
}

// digest is "sha256:" + lowercase hex of SHA-256 over the JCS form of v.
func digest(v any) (string, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	c, err := jcs.Transform(raw)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(c)
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

var (
	versionRE = regexp.MustCompile(`^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$`)
	digestRE  = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)
)

// check is the agent's trusted check of the Skill Interface Document's structure, written from the document's
// prose (interface version 1.0): required members, version strings, inline references with matching digests,
// unique record kinds other than the skill id, and the authority values.
func check(doc map[string]any) error {
	if doc["interface_version"] != "1.0" {
		return errors.New("interface_version is not 1.0")
	}
	id, _ := doc["skill_id"].(string)
	v, _ := doc["skill_version"].(string)
	if id == "" || !versionRE.MatchString(v) {
		return errors.New("skill_id or skill_version malformed")
	}
	refs := []any{doc["input_schema"], doc["output_schema"]}
	kinds := map[string]bool{}
	for _, r := range doc["supporting_record_schemas"].([]any) {
		e := r.(map[string]any)
		k, _ := e["kind"].(string)
		if k == "" || k == id || kinds[k] {
			return fmt.Errorf("record kind %q not unique or equals the skill id", k)
		}
		kinds[k] = true
		refs = append(refs, e["schema_reference"])
	}
	for _, r := range refs {
		ref, _ := r.(map[string]any)
		res, _ := ref["resolution"].(map[string]any)
		ver, _ := ref["version"].(string)
		d, _ := ref["digest"].(string)
		if ref["schema_uri"] == "" || !versionRE.MatchString(ver) || ref["dialect"] != dialect ||
			!digestRE.MatchString(d) || res["type"] != "inline" || res["schema"] == nil {
			return errors.New("schema reference malformed")
		}
		if got, _ := digest(res["schema"]); got != d {
			return errors.New("inline schema does not match its digest")
		}
	}
	auth, _ := doc["authority"].(map[string]any)
	switch auth["default_mode"] {
	case "observe_only", "recommend_only", "execute":
	default:
		return errors.New("authority.default_mode unknown")
	}
	return nil
}

// noRetrieval refuses every schema retrieval: only the inline schema and the embedded meta-schema are used.
type noRetrieval struct{}

func (noRetrieval) Load(url string) (any, error) {
	return nil, fmt.Errorf("retrieval of %s refused", url)
}

// compile compiles the inline schema of a Schema Reference with format asserted and retrieval disabled.
func compile(r any) (*jsonschema.Schema, error) {
	schema := r.(map[string]any)["resolution"].(map[string]any)["schema"]
	raw, _ := json.Marshal(schema)
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(noRetrieval{})
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	const loc = "urn:inline:schema.json"
	if err := c.AddResource(loc, doc); err != nil {
		return nil, err
	}
	return c.Compile(loc)
}

// valid validates a decoded JSON value (from encoding/json) against a compiled schema.
func valid(s *jsonschema.Schema, v any) error {
	raw, _ := json.Marshal(v)
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return err
	}
	return s.Validate(inst)
}

// details lists where an instance failed its schema: instance_path (a JSON Pointer), schema_path and keyword, at
// most five, never the instance's values ("Diagnostic details MUST NOT disclose … input values").
func details(err error) []any {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return nil
	}
	var out []any
	var walk func(u jsonschema.OutputUnit)
	walk = func(u jsonschema.OutputUnit) {
		if u.Error != nil && len(u.Errors) == 0 && len(out) < 5 {
			kw := u.KeywordLocation[strings.LastIndex(u.KeywordLocation, "/")+1:]
			out = append(out, map[string]any{"instance_path": u.InstanceLocation, "schema_path": u.KeywordLocation, "keyword": kw})
		}
		for _, c := range u.Errors {
			walk(c)
		}
	}
	walk(*ve.DetailedOutput())
	return out
}
