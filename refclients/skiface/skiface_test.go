package skiface

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The worked example of the document prints four digests; they are real test vectors.
func TestWorkedExampleDigests(t *testing.T) {
	doc := readTestdata(t, "evaluate_resource_condition.json")
	got, err := InterfaceDigest(doc)
	if err != nil {
		t.Fatal(err)
	}
	if want := "sha256:4dedea3f7ddf19e94d9fd0b30886624f50afb5aadc1b407508a05dd3c40f380d"; got != want {
		t.Errorf("interface digest %s, want %s", got, want)
	}
	d, err := ParseDocument(doc)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"/input_schema":  "sha256:a593fb695fd727eaa36602d9b539e53e54cde50aec6f4b7df5d624b70148f26a",
		"/output_schema": "sha256:11ee18a8c1ab8821e083d61298ef07c4f2ce2e29c3eafb82f4742f1e1e969bce",
		"/supporting_record_schemas/0/schema_reference": "sha256:3cf0d51c1d6e97d03fa80d5b9435c55d955f824bc9e58d053bb2095e18a0a8c4",
	}
	for _, nr := range d.References() {
		got, err := SchemaDigest(nr.Ref.Resolution.Schema)
		if err != nil {
			t.Fatal(err)
		}
		if got != want[nr.Path] || got != nr.Ref.Digest {
			t.Errorf("%s: digest %s, want %s (declared %s)", nr.Path, got, want[nr.Path], nr.Ref.Digest)
		}
	}
	// Member order, whitespace and string escapes do not change a JCS digest.
	reordered := []byte(`{"type":"object","required":["resource_id","condition"],"additionalProperties":false,` +
		`"properties":{"condition":{"additionalProperties":false,"required":["metric","operator","threshold","unit"],` +
		`"properties":{"unit":{"type":"string"},"threshold":{"type":"number"},"operator":{"enum":["gt","gte","lt","lte"]},` +
		`"metric":{"type":"\u0073tring"}},"type":"object"},   "resource_id":{"type":"string"}}}`)
	if got, _ := SchemaDigest(reordered); got != want["/input_schema"] {
		t.Errorf("reordered input schema digest %s, want %s", got, want["/input_schema"])
	}
}

func TestTrustedSchemaPinned(t *testing.T) {
	if err := CheckTrustedSchema(TrustedSchema()); err != nil {
		t.Fatalf("packaged schema: %v (update TrustedSchemaDigest with the schema)", err)
	}
	tampered := strings.Replace(string(TrustedSchema()), `"skill_version",`, ``, 1)
	if err := CheckTrustedSchema([]byte(tampered)); err == nil {
		t.Error("a tampered copy passed the integrity check")
	}
}

func TestValidateDocument(t *testing.T) {
	doc := readTestdata(t, "evaluate_resource_condition.json")
	if err := ValidateDocument(doc); err != nil {
		t.Fatalf("the worked example: %v", err)
	}
	v, err := VerifyDocument(doc, Limits{})
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	if v.Digest != "sha256:4dedea3f7ddf19e94d9fd0b30886624f50afb5aadc1b407508a05dd3c40f380d" || v.Records["resource-observation"] == nil {
		t.Errorf("verified: %+v", v)
	}
	cases := []struct {
		name, path string
		edit       func(m map[string]any)
	}{
		{"no output_schema", "", func(m map[string]any) { delete(m, "output_schema") }},
		{"no resolution.schema", "", func(m map[string]any) {
			delete(m["input_schema"].(map[string]any)["resolution"].(map[string]any), "schema")
		}},
		{"records not an array", "/supporting_record_schemas", func(m map[string]any) { m["supporting_record_schemas"] = map[string]any{} }},
		{"version leading zero", "/skill_version", func(m map[string]any) { m["skill_version"] = "01.0" }},
		{"interface 2.0", "/interface_version", func(m map[string]any) { m["interface_version"] = "2.0" }},
		{"resolution url", "/output_schema/resolution/type", func(m map[string]any) {
			m["output_schema"].(map[string]any)["resolution"].(map[string]any)["type"] = "url"
		}},
		{"uppercase digest", "/input_schema/digest", func(m map[string]any) {
			in := m["input_schema"].(map[string]any)
			in["digest"] = strings.ToUpper(in["digest"].(string))
		}},
		{"authority mode", "/authority/default_mode", func(m map[string]any) { m["authority"].(map[string]any)["default_mode"] = "execute_with_approval" }},
		{"kind equals skill", "/supporting_record_schemas/0/kind", func(m map[string]any) {
			m["supporting_record_schemas"].([]any)[0].(map[string]any)["kind"] = "evaluate_resource_condition"
		}},
		{"duplicate kind", "/supporting_record_schemas/1/kind", func(m map[string]any) {
			r := m["supporting_record_schemas"].([]any)
			m["supporting_record_schemas"] = append(r, r[0])
		}},
	}
	for _, c := range cases {
		var m map[string]any
		_ = json.Unmarshal(doc, &m)
		c.edit(m)
		b, _ := json.Marshal(m)
		err := ValidateDocument(b)
		if CodeOf(err) != InterfaceInvalid {
			t.Errorf("%s: %v, want interface_invalid", c.name, err)
			continue
		}
		e := err.(*Error)
		if c.path != "" && e.Path != c.path {
			t.Errorf("%s: path %q, want %q (%v)", c.name, e.Path, c.path, err)
		}
	}
}

func ref(schema string) json.RawMessage {
	d, err := SchemaDigest([]byte(schema))
	if err != nil {
		panic(err)
	}
	return json.RawMessage(fmt.Sprintf(`{"schema_uri":"urn:t:1","version":"1.0","dialect":%q,"digest":%q,"resolution":{"type":"inline","schema":%s}}`, Dialect2020, d, schema))
}

func TestCompileAndValidate(t *testing.T) {
	doc := readTestdata(t, "evaluate_resource_condition.json")
	d, _ := ParseDocument(doc)
	rb, _ := json.Marshal(d.SupportingRecordSchemas[0].SchemaReference)
	c, err := CompileSchema(rb, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	good := `{"record_id":"observation-7","resource_id":"network-resource-123","metric":"utilization","value":42,"unit":"percent","observed_at":"2026-08-11T12:00:01Z"}`
	if vs := c.Validate(json.RawMessage(good)); vs != nil {
		t.Errorf("valid record: %v", vs)
	}
	for _, bad := range []string{"2026-08-11T12:00:01", "2026-08-11 12:00:01Z", "2026-13-11T12:00:01Z", "not-a-time"} {
		inst := strings.Replace(good, "2026-08-11T12:00:01Z", bad, 1)
		vs := c.Validate(json.RawMessage(inst))
		if len(vs) == 0 || vs[0].InstancePath != "/observed_at" {
			t.Errorf("observed_at %q: %v, want a violation at /observed_at", bad, vs)
		}
	}
	in, _ := json.Marshal(d.InputSchema)
	ci, err := CompileSchema(in, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	vs := ci.Validate(json.RawMessage(`{"resource_id":"r","condition":{"metric":"m","operator":"gte","threshold":"80","unit":"percent"}}`))
	if len(vs) != 1 || vs[0].InstancePath != "/condition/threshold" || vs[0].Keyword != "type" {
		t.Errorf("threshold as string: %+v", vs)
	}
}

func TestCompileRefusals(t *testing.T) {
	chain := func(n int, cyclic bool) string {
		var b strings.Builder
		b.WriteString(`{"$ref":"#/$defs/d0","$defs":{`)
		for i := 0; i < n; i++ {
			next := fmt.Sprintf(`{"$ref":"#/$defs/d%d"}`, i+1)
			if i == n-1 {
				next = `{"type":"string"}`
				if cyclic {
					next = `{"$ref":"#/$defs/d0"}`
				}
			}
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"d%d":%s`, i, next)
		}
		b.WriteString(`}}`)
		return b.String()
	}
	deep := strings.Repeat(`{"items":`, 200) + `true` + strings.Repeat(`}`, 200)
	big := `{"description":"` + strings.Repeat("x", 2<<20) + `"}`
	cases := []struct {
		name, schema, code string
		lim                Limits
	}{
		{"ok", `{"type":"object","properties":{"a":{"$ref":"#/$defs/a"}},"$defs":{"a":{"type":"string"}}}`, "", Limits{}},
		{"embedded absolute id", `{"$ref":"urn:x:common#/$defs/u","$defs":{"c":{"$id":"urn:x:common","$defs":{"u":{"enum":["Gbps"]}}}}}`, "", Limits{}},
		{"anchor", `{"$ref":"#u","$defs":{"u":{"$anchor":"u","type":"string"}}}`, "", Limits{}},
		{"recursion through properties", `{"$defs":{"n":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/n"}}}}},"$ref":"#/$defs/n"}`, "", Limits{}},
		{"external https", `{"$ref":"https://schemas.example/common.json#/$defs/unit"}`, InterfaceInvalid, Limits{}},
		{"external file", `{"$ref":"file:///etc/passwd"}`, InterfaceInvalid, Limits{}},
		{"meta-schema ref", `{"$ref":"https://json-schema.org/draft/2020-12/schema"}`, InterfaceInvalid, Limits{}},
		{"dangling pointer", `{"$ref":"#/$defs/missing"}`, InterfaceInvalid, Limits{}},
		{"other dialect", `{"$defs":{"c":{"$id":"urn:x:c","$schema":"http://json-schema.org/draft-07/schema#","type":"string"}}}`, InterfaceInvalid, Limits{}},
		{"relative embedded id", `{"$ref":"common.json","$defs":{"c":{"$id":"common.json","type":"string"}}}`, InterfaceInvalid, Limits{}},
		{"invalid schema", `{"type":"strin"}`, InterfaceInvalid, Limits{}},
		{"cycle", chain(3, true), ResourceLimitExceeded, Limits{}},
		{"self ref", `{"$ref":"#"}`, ResourceLimitExceeded, Limits{}},
		{"depth ok", chain(32, false), "", Limits{}},
		{"depth", chain(40, false), ResourceLimitExceeded, Limits{}},
		{"nesting", deep, ResourceLimitExceeded, Limits{}},
		{"size", big, ResourceLimitExceeded, Limits{}},
		{"compile time", `{"type":"string"}`, ResourceLimitExceeded, Limits{CompileTimeout: time.Nanosecond}},
	}
	for _, c := range cases {
		_, err := CompileSchema(ref(c.schema), c.lim)
		if CodeOf(err) != c.code || (c.code == "" && err != nil) {
			t.Errorf("%s: %v, want code %q", c.name, err, c.code)
		}
	}
	// Wrong digest, resolution type and a missing schema are interface_invalid.
	bad := []string{
		`{"schema_uri":"u","version":"1.0","dialect":"` + Dialect2020 + `","digest":"sha256:` + strings.Repeat("0", 64) + `","resolution":{"type":"inline","schema":{}}}`,
		`{"schema_uri":"u","version":"1.0","dialect":"` + Dialect2020 + `","digest":"sha256:` + strings.Repeat("0", 64) + `","resolution":{"type":"url","schema":{}}}`,
		`{"schema_uri":"u","version":"1.0","dialect":"` + Dialect2020 + `","digest":"sha256:` + strings.Repeat("0", 64) + `","resolution":{"type":"inline"}}`,
	}
	for i, b := range bad {
		if _, err := CompileSchema(json.RawMessage(b), Limits{}); CodeOf(err) != InterfaceInvalid {
			t.Errorf("bad reference %d: %v", i, err)
		}
	}
}

func TestPointers(t *testing.T) {
	if p := pointer([]string{"a/b", "c~d", "0"}); p != "/a~1b/c~0d/0" {
		t.Errorf("pointer %q", p)
	}
	v, _ := decode([]byte(`{"a/b":{"c~d":[1,2]}}`))
	if x, ok := Resolve(v, "/a~1b/c~0d/1"); !ok || fmt.Sprint(x) != "2" {
		t.Errorf("resolve: %v %v", x, ok)
	}
	for _, bad := range []string{"a", "/a~2"} {
		if ParsePointer(bad) == nil {
			t.Errorf("%q parsed as a pointer", bad)
		}
	}
}

func mustRead(name string) []byte {
	b, err := os.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return b
}

// Issue #18: the derived schema requires and forbids only what the prose states. Members the prose never requires
// may be absent, and members it never forbids may be present (a top-level description, a Schema Reference title,
// extra interaction or authority members).
func TestValidateDocumentOpenWherePoseIsSilent(t *testing.T) {
	doc := readTestdata(t, "evaluate_resource_condition.json")
	for name, edit := range map[string]func(m map[string]any){
		"top-level description":  func(m map[string]any) { m["description"] = "evaluates a resource metric" },
		"Schema Reference title": func(m map[string]any) { m["input_schema"].(map[string]any)["title"] = "input" },
		"resolution annotation": func(m map[string]any) {
			m["output_schema"].(map[string]any)["resolution"].(map[string]any)["note"] = "x"
		},
		"record entry annotation": func(m map[string]any) {
			m["supporting_record_schemas"].([]any)[0].(map[string]any)["description"] = "x"
		},
		"no supporting records": func(m map[string]any) { delete(m, "supporting_record_schemas") },
		"no interaction":        func(m map[string]any) { delete(m, "interaction") },
		"no cancellable":        func(m map[string]any) { delete(m["interaction"].(map[string]any), "cancellable") },
		"extra interaction":     func(m map[string]any) { m["interaction"].(map[string]any)["timeout_seconds"] = 30 },
		"no authority":          func(m map[string]any) { delete(m, "authority") },
		"extra authority":       func(m map[string]any) { m["authority"].(map[string]any)["notes"] = "x" },
	} {
		var m map[string]any
		_ = json.Unmarshal(doc, &m)
		edit(m)
		b, _ := json.Marshal(m)
		if err := ValidateDocument(b); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
