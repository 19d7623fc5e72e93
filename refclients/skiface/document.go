package skiface

import (
	"crypto/sha256"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

//go:embed skill-interface-v1.json
var trustedSchema []byte

// TrustedSchemaDigest pins the packaged Skill Interface Schema (JCS SHA-256). Whoever edits the schema file
// updates this value in the same commit; TestTrustedSchemaPinned fails otherwise.
const TrustedSchemaDigest = "sha256:806e1e5fcd2ab004ab45b9eefd7f9be87b9405a1fd4a4f33618c3f1ff9e971b6"

// TrustedSchema returns a copy of the project's Skill Interface Schema for interface version 1.0 (derived from the
// draft's prose pending the upstream file; see README.md).
func TrustedSchema() []byte { return append([]byte(nil), trustedSchema...) }

// Document is a Skill Interface Document. Raw keeps the bytes it was decoded from.
type Document struct {
	InterfaceVersion        string          `json:"interface_version"`
	SkillID                 string          `json:"skill_id"`
	SkillVersion            string          `json:"skill_version"`
	InputSchema             SchemaReference `json:"input_schema"`
	OutputSchema            SchemaReference `json:"output_schema"`
	SupportingRecordSchemas []RecordSchema  `json:"supporting_record_schemas"`
	Interaction             Interaction     `json:"interaction"`
	Authority               Authority       `json:"authority"`
	Raw                     json.RawMessage `json:"-"`
}

// RecordSchema associates a supporting-record kind with the Schema Reference of the complete record.
type RecordSchema struct {
	Kind            string          `json:"kind"`
	SchemaReference SchemaReference `json:"schema_reference"`
}

// Interaction declares how the skill answers.
type Interaction struct {
	SupportedResponseModes []string        `json:"supported_response_modes"`
	Cancellable            json.RawMessage `json:"cancellable,omitempty"` // any JSON value: the prose gives it no type
}

// Authority is descriptive metadata about the advertised operating posture. It is never a permission.
type Authority struct {
	DefaultMode           string `json:"default_mode"`
	ApprovalMayBeRequired bool   `json:"approval_may_be_required"`
}

// ParseDocument decodes a document (after the nesting limit); it does not validate it.
func ParseDocument(doc []byte) (*Document, error) {
	return parseDocument(doc, DefaultLimits().MaxNesting)
}

func parseDocument(doc []byte, maxNesting int) (*Document, error) {
	if n := nesting(doc); maxNesting > 0 && n > maxNesting {
		return nil, errf(ResourceLimitExceeded, "parse document", "", "the document nests %d levels, over the nesting limit", n)
	}
	var d Document
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, &Error{Code: InterfaceInvalid, Step: "parse document", Msg: "the document does not decode as a Skill Interface Document", Err: err}
	}
	d.Raw = append(json.RawMessage(nil), doc...)
	return &d, nil
}

// References lists every Schema Reference of the document with its JSON Pointer.
func (d *Document) References() []NamedReference {
	out := []NamedReference{{"/input_schema", d.InputSchema}, {"/output_schema", d.OutputSchema}}
	for i, r := range d.SupportingRecordSchemas {
		out = append(out, NamedReference{fmt.Sprintf("/supporting_record_schemas/%d/schema_reference", i), r.SchemaReference})
	}
	return out
}

// NamedReference is a Schema Reference and where it sits in its document.
type NamedReference struct {
	Path string
	Ref  SchemaReference
}

// RecordSchemaFor returns the Schema Reference of a supporting-record kind.
func (d *Document) RecordSchemaFor(kind string) (SchemaReference, bool) {
	for _, r := range d.SupportingRecordSchemas {
		if r.Kind == kind {
			return r.SchemaReference, true
		}
	}
	return SchemaReference{}, false
}

var (
	trustedOnce sync.Once
	trustedSch  *jsonschema.Schema
	trustedErr  error
)

// compileTrusted compiles a copy of the Skill Interface Schema (the packaged one, or another copy for the
// integrity tests). It holds internal references only.
func compileTrusted(b []byte) (*jsonschema.Schema, error) {
	v, err := decode(b)
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noLoader{})
	c.AssertFormat()
	const loc = "urn:extconf:skill-interface:1.0:derived-from-prose"
	if err := c.AddResource(loc, v); err != nil {
		return nil, err
	}
	return c.Compile(loc)
}

func packagedTrusted() (*jsonschema.Schema, error) {
	trustedOnce.Do(func() {
		if err := CheckTrustedSchema(trustedSchema); err != nil {
			trustedErr = err
			return
		}
		trustedSch, trustedErr = compileTrusted(trustedSchema)
	})
	return trustedSch, trustedErr
}

// CheckTrustedSchema verifies a copy of the Skill Interface Schema against the pinned digest ("The remote agent
// and client agent MUST integrity-check the packaged Skill Interface Schema before using it").
func CheckTrustedSchema(b []byte) error {
	d, err := SchemaDigest(b)
	if err != nil {
		return &Error{Step: "integrity-check the Skill Interface Schema", Msg: "the schema copy is not JCS-able JSON", Err: err}
	}
	if d != TrustedSchemaDigest {
		return errf("", "integrity-check the Skill Interface Schema", "", "the schema copy has digest %s, the pinned copy %s", d, TrustedSchemaDigest)
	}
	return nil
}

// ValidateDocument validates a Skill Interface Document against the packaged Skill Interface Schema, then checks
// the rules the schema language cannot state (supporting-record kinds unique and different from skill_id). The
// error is an *Error with code interface_invalid (or resource_limit_exceeded) whose Path and Details name the
// failing members. It neither recomputes digests nor compiles the inline schemas (see VerifyDocument).
func ValidateDocument(doc []byte) error {
	sch, err := packagedTrusted()
	if err != nil {
		return &Error{Code: InterfaceInvalid, Step: "validate document", Msg: "the packaged Skill Interface Schema is unusable", Err: err}
	}
	k := sha256.Sum256(doc)
	if validDocs.has(k) {
		return nil
	}
	if err := validateWith(sch, doc, DefaultLimits().MaxNesting, "validate document"); err != nil {
		return err
	}
	validDocs.add(k)
	return nil
}

// validDocs are the SHA-256 digests of documents that validated against the packaged schema: the same documents
// are validated at every agent start, stand-in start and describe call, and the outcome depends on the bytes
// alone. Only successes are kept (an *Error is the caller's to annotate); bounded, dropped when full.
var validDocs = &digestSet{m: map[[32]byte]bool{}}

type digestSet struct {
	mu sync.Mutex
	m  map[[32]byte]bool
}

const digestSetMax = 4096

func (s *digestSet) has(k [32]byte) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[k]
}

func (s *digestSet) add(k [32]byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.m) >= digestSetMax {
		clear(s.m)
	}
	s.m[k] = true
}

func validateWith(sch *jsonschema.Schema, doc []byte, maxNesting int, step string) error {
	v, err := checkedDecode(doc, maxNesting, step, "the document")
	if err != nil {
		var e *Error
		if errors.As(err, &e) && e.Code == "" {
			e.Code = InterfaceInvalid
		}
		return err
	}
	if err := sch.Validate(v); err != nil {
		var ve *jsonschema.ValidationError
		if !errors.As(err, &ve) {
			return &Error{Code: InterfaceInvalid, Step: step, Err: err}
		}
		vs := leaves(ve, nil, nil) // the trusted schema's patterns are RE2: never undecided
		e := &Error{Code: InterfaceInvalid, Step: step, Details: Details(vs),
			Msg: "the document does not validate against the Skill Interface Schema"}
		if len(vs) > 0 {
			e.Path = vs[0].InstancePath
			e.Msg += ": " + vs[0].Message
		}
		return e
	}
	return checkKinds(v)
}

func checkKinds(v any) error {
	obj, _ := v.(map[string]any)
	skill, _ := obj["skill_id"].(string)
	recs, _ := obj["supporting_record_schemas"].([]any)
	seen := map[string]bool{}
	for i, r := range recs {
		m, _ := r.(map[string]any)
		k, _ := m["kind"].(string)
		p := fmt.Sprintf("/supporting_record_schemas/%d/kind", i)
		if seen[k] {
			return errf(InterfaceInvalid, "validate document", p, "supporting-record kind %q is declared twice", k)
		}
		if k == skill {
			return errf(InterfaceInvalid, "validate document", p, "supporting-record kind %q equals the document's skill_id", k)
		}
		seen[k] = true
	}
	return nil
}

// Verified is a document that passed every check of steps 5 and 6, with its compiled validators.
type Verified struct {
	Doc     *Document
	Digest  string // its Skill Interface Document Digest
	Input   *Compiled
	Output  *Compiled
	Records map[string]*Compiled // by kind
	Size    int                  // JCS bytes
}

// VerifyDocument runs what an agent must do before advertising a document and what a client does after
// retrieving one: validation against the trusted schema, every inline schema's digest, compilation under lim.
func VerifyDocument(doc []byte, lim Limits) (*Verified, error) {
	if err := ValidateDocument(doc); err != nil {
		return nil, err
	}
	return verifyRefs(doc, lim, lim.withDefaults().MaxNesting, compileOpts{}, "verify embedded schemas")
}

func verifyRefs(doc []byte, lim Limits, maxNesting int, o compileOpts, step string) (*Verified, error) {
	d, err := parseDocument(doc, maxNesting)
	if err != nil {
		return nil, err
	}
	c, err := JCS(doc)
	if err != nil {
		return nil, &Error{Code: InterfaceInvalid, Step: step, Msg: "the document does not satisfy the JCS input requirements", Err: err}
	}
	v := &Verified{Doc: d, Digest: DigestBytes(c), Records: map[string]*Compiled{}, Size: len(c)}
	refs := d.References()
	for i, nr := range refs {
		cs, err := compileSR(nr.Ref, lim, o, step)
		if err != nil {
			var e *Error
			if errors.As(err, &e) {
				e.Path = nr.Path + e.Path
			}
			return nil, err
		}
		switch i {
		case 0:
			v.Input = cs
		case 1:
			v.Output = cs
		default:
			v.Records[d.SupportingRecordSchemas[i-2].Kind] = cs
		}
	}
	return v, nil
}
