package hostile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	sfx "github.com/extconf/extconf/fixtures/schemaiface"
	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/refclients/skiface"
)

// Extension URIs the hostile cards declare (copied: mock agents do not import the harness's verifiers).
const (
	termsURI     = "https://agentsow.com/extensions/a2a-terms/v1"
	interviewURI = "https://agentsow.com/extensions/a2a-interview/v1"
	schemaURI    = "https://agentic-network-management.github.io/agent-schema-interfaces/extensions/schema-interface/v1"
	kidHostile   = "hostile-es256"
)

// build prepares the bytes the behaviour serves.
func (a *Agent) build() error {
	var err error
	switch a.B {
	case NeverAnswers, OneBytePerSecond, HugeBody, RedirectLoop, RedirectOffOrig, RedirectMetadata:
		a.card, err = marshal(a.baseCard(nil, echoSkills()))
	case DeepNesting:
		c, err2 := marshal(a.baseCard(nil, echoSkills()))
		if err2 != nil {
			return err2
		}
		nest := strings.Repeat("[", NestingDepth) + strings.Repeat("]", NestingDepth)
		a.card = insertMember(c, `"nested":`+nest)
	case InvalidUTF8:
		c := a.baseCard(nil, echoSkills())
		c["name"] = "Hostile agent PLACEHOLDER"
		b, err2 := marshal(c)
		if err2 != nil {
			return err2
		}
		a.card = bytes.Replace(b, []byte("PLACEHOLDER"), []byte{'\xff', '\xfe', 'x'}, 1)
	case DuplicateMembers:
		c := a.baseCard(nil, echoSkills())
		c["name"] = "Evil agent"
		b, err2 := marshal(c)
		if err2 != nil {
			return err2
		}
		a.card = insertMember(b, `"name":"Benign agent"`) // first "Benign", last "Evil": encoding/json keeps "Evil"
	case HugeNumbers:
		c := a.baseCard([]any{map[string]any{"uri": "urn:hostile:numbers", "params": map[string]any{"amount": "PLACEHOLDER"}}}, echoSkills())
		b, err2 := marshal(c)
		if err2 != nil {
			return err2
		}
		a.card = bytes.Replace(b, []byte(`{"amount":"PLACEHOLDER"}`), []byte(`{"amount":1e400,"debt":-1e999,"tiny":1e-400}`), 1)
	case ManySkills:
		skills := make([]any, 0, SkillCount)
		for i := range SkillCount {
			skills = append(skills, map[string]any{"id": fmt.Sprintf("s%06d", i), "name": "s", "description": "d", "tags": []string{"t"}})
		}
		a.card, err = marshal(a.baseCard(nil, skills))
	case ProposalFile, ProposalPrivate, ProposalMetadata, ProposalPublicName:
		a.card, err = marshal(a.baseCard([]any{a.termsDeclaration()}, echoSkills()))
	case SchemaRefHTTP, SchemaRefFile, SchemaPattern, SchemaRefCycle, EndlessSSE, EndlessSSEEvents:
		err = a.buildSchemaInterface()
	case JWSAlgNone, JWSJKUOffOrigin, JWSJKUMetadata:
		err = a.buildSigned()
	case InterfaceMetadata:
		c := a.baseCard([]any{map[string]any{"uri": interviewURI}}, echoSkills())
		c["supportedInterfaces"] = []any{map[string]any{"url": "http://" + MetadataHost + "/latest/api/token",
			"protocolBinding": "JSONRPC", "protocolVersion": "1.0"}}
		a.card, err = marshal(c)
	default:
		err = fmt.Errorf("hostile: no card for %q", a.B)
	}
	return err
}

func (a *Agent) baseCard(exts []any, skills []any) map[string]any {
	if exts == nil {
		exts = []any{}
	}
	return map[string]any{
		"name":        "Hostile agent",
		"description": "Misbehaves on purpose: " + string(a.B),
		"supportedInterfaces": []any{map[string]any{
			"url": a.base + "/jsonrpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}},
		"version":            "1.0",
		"capabilities":       map[string]any{"streaming": true, "extensions": exts},
		"defaultInputModes":  []string{"text/plain", "application/json"},
		"defaultOutputModes": []string{"text/plain", "application/json"},
		"skills":             skills,
	}
}

func echoSkills() []any {
	return []any{map[string]any{"id": "echo", "name": "Echo", "description": "Echoes the request.", "tags": []string{"echo"},
		"examples": []string{"hello"}}}
}

// termsDeclaration lists one proposal at the behaviour's URL; the digest commits to nothing real.
func (a *Agent) termsDeclaration() map[string]any {
	u := map[Behaviour]string{
		ProposalFile:       PasswdURL,
		ProposalPrivate:    "https://" + PrivateHost + "/proposal.json",
		ProposalMetadata:   "https://" + MetadataHost + "/latest/meta-data/iam/security-credentials/",
		ProposalPublicName: "https://" + PublicName + "/proposal.json",
	}[a.B]
	return map[string]any{"uri": termsURI, "params": map[string]any{
		"sow_spec": "https://agentsow.com/spec/v1",
		"proposals": []any{map[string]any{
			"url": u, "digest": "sha256:" + strings.Repeat("0", 64), "sow": "sow:hostile"}},
	}}
}

// buildSchemaInterface assembles the worked example's document with the behaviour's schema, every digest
// recomputed, so that the only thing wrong is the attack.
func (a *Agent) buildSchemaInterface() error {
	var dr struct {
		Result struct {
			Interface map[string]any `json:"interface"`
		} `json:"result"`
	}
	dec := json.NewDecoder(bytes.NewReader(sfx.Example("describe-result")))
	dec.UseNumber()
	if err := dec.Decode(&dr); err != nil {
		return err
	}
	doc := dr.Result.Interface
	inSchema := doc["input_schema"].(map[string]any)["resolution"].(map[string]any)["schema"].(map[string]any)
	inProps := inSchema["properties"].(map[string]any)
	outSchema := doc["output_schema"].(map[string]any)["resolution"].(map[string]any)["schema"].(map[string]any)
	switch a.B {
	case SchemaRefHTTP:
		inProps["resource_id"] = map[string]any{"$ref": a.by.URL() + "/schemas/resource-id.json"}
	case SchemaRefFile:
		inProps["resource_id"] = map[string]any{"$ref": PasswdURL}
	case SchemaRefCycle:
		inSchema["$defs"] = map[string]any{"a": map[string]any{"$ref": "#/$defs/b"}, "b": map[string]any{"$ref": "#/$defs/a"}}
		inProps["resource_id"] = map[string]any{"$ref": "#/$defs/a"}
	case SchemaPattern:
		outSchema["properties"].(map[string]any)["unit"] = map[string]any{"type": "string", "pattern": CatastrophicRE}
	}
	refs := []map[string]any{doc["input_schema"].(map[string]any), doc["output_schema"].(map[string]any)}
	for _, r := range doc["supporting_record_schemas"].([]any) {
		refs = append(refs, r.(map[string]any)["schema_reference"].(map[string]any))
	}
	for _, r := range refs {
		sch, err := json.Marshal(r["resolution"].(map[string]any)["schema"])
		if err != nil {
			return err
		}
		if r["digest"], err = skiface.SchemaDigest(sch); err != nil {
			return err
		}
	}
	raw, err := marshal(doc)
	if err != nil {
		return err
	}
	dg, err := skiface.InterfaceDigest(raw)
	if err != nil {
		return err
	}
	a.doc = raw
	ext := map[string]any{"uri": schemaURI, "required": false, "params": map[string]any{
		"interface_version": "1.0",
		"skills":            []any{map[string]any{"skill_id": skillEvaluate, "skill_version": "1.0", "interface_digest": dg}},
	}}
	skills := []any{
		map[string]any{"id": "describe_skill", "name": "Describe skill", "description": "Returns a skill's Skill Interface Document.",
			"tags": []string{"schema-interface"}},
		map[string]any{"id": skillEvaluate, "name": "Evaluate resource condition", "description": "Evaluates a condition on a resource.",
			"tags": []string{"network"}},
	}
	a.card, err = marshal(a.baseCard([]any{ext}, skills))
	return err
}

// buildSigned signs a card declaring the interview extension: with alg none, or with the test ES256 key under a
// jku the harness must not follow (the key is published nowhere it may look).
func (a *Agent) buildSigned() error {
	card, err := marshal(a.baseCard([]any{map[string]any{"uri": interviewURI}}, echoSkills()))
	if err != nil {
		return err
	}
	switch a.B {
	case JWSAlgNone:
		// {"alg":"none","kid":"hostile-es256","typ":"JOSE"}, an empty signature: no signature at all.
		prot := b64(`{"alg":"none","kid":"` + kidHostile + `","typ":"JOSE"}`)
		a.card = insertMember(card, `"signatures":[{"protected":"`+prot+`","signature":""}]`)
		return nil
	case JWSJKUOffOrigin:
		s := &a2atest.CardSigner{Key: testpki.CardKeyES256(), Alg: "ES256", KID: kidHostile}
		a.card, err = s.Sign(card, a.by.URL()+"/.well-known/jwks.json")
	case JWSJKUMetadata:
		s := &a2atest.CardSigner{Key: testpki.CardKeyES256(), Alg: "ES256", KID: kidHostile}
		a.card, err = s.Sign(card, "https://"+MetadataHost+"/latest/jwks.json")
	}
	return err
}

func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// insertMember puts member ("name":value) first in the object b.
func insertMember(b []byte, member string) []byte {
	out := make([]byte, 0, len(b)+len(member)+1)
	out = append(out, '{')
	out = append(out, member...)
	out = append(out, ',')
	return append(out, b[1:]...)
}
