package schemaiface

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"sync"

	sifx "github.com/extconf/extconf/fixtures/schemaiface"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/mockagents/crosscut"
	"github.com/extconf/extconf/refclients/skiface"
	"github.com/extconf/extconf/sabotage"
)

// URI is the schema-interface extension.
const URI = skiface.ExtensionURI

// Skills with a deliberate fault in the reference agent.
const (
	skillEvaluate    = "evaluate_resource_condition"
	skillManage      = "manage_resource"
	skillMeasure     = "measure_link_bandwidth"
	skillPropose     = "propose_remediation"
	skillUnavailable = "inventory_snapshot" // its interface store is offline: interface_unavailable
	skillCorrupt     = "legacy_probe"       // its stored document is corrupted after advertisement: interface_invalid
	skillBrokenInit  = "broken_init"        // its interface fails to assemble at start-up: never advertised
)

// skill is one domain skill as the agent holds it after start-up.
type skill struct {
	id      string
	card    sifx.CardText
	doc     []byte // the assembled, validated document the agent validates against (its active document)
	digest  string // its Skill Interface Document Digest
	version string
	ver     *skiface.Verified
	input   *skiface.Compiled // input validator (differs from ver.Input only under sabotage)
	// published is what describe_skill returns and cardDigest what the card advertises; they differ from doc and
	// digest only under sabotage.
	published  []byte
	cardDigest string
	advertised bool  // listed in the extension's params.skills
	initErr    error // why assembly or validation failed at start-up
	prev       []binding
	authority  skiface.Authority
}

// binding is a (skill_version, interface_digest) pair the agent once advertised.
type binding struct{ version, digest string }

type agent struct {
	set    sabotage.Set
	opt    Options
	skills map[string]*skill
	order  []string // card order of the domain skills

	mu          sync.Mutex
	describes   int
	resources   map[string]*resource
	approvals   map[string]int  // principal/resource → single-use approvals granted
	approvedAny map[string]bool // principal → had an approved delete (sabotage: remembered)
	revoked     map[string]bool // principal/operation/resource grants revoked
	decisions   map[string]bool // principal/skill → first decision (sabotage: cached)
}

// Options are the reference agent's permitted other choices: each one makes a choice the draft leaves open (its
// permitting sentence is in the suite README, "Latitudes") and no row may fail with it on. The zero value is the
// reference behaviour.
type Options struct {
	// SyncOnly: the card does not offer streaming (capabilities.streaming false); SendStreamingMessage is refused
	// with UnsupportedOperation. "The client MUST invoke the A2A Send Message or Send Streaming Message operation".
	SyncOnly bool
	// ExtraMembers: every document carries members the prose neither requires nor forbids — a top-level
	// description, a title on each Schema Reference, interaction.timeout_seconds — and manage_resource's document
	// omits interaction.cancellable. The Skill Interface Schema prose names no closed member set.
	ExtraMembers bool
	// Plain401: an unauthenticated request gets a plain RFC 7235 401 with WWW-Authenticate and no JSON body. A
	// pre-task error "MUST be carried using the error mechanism of the selected A2A protocol binding and SHOULD
	// expose the same machine-readable code when that binding permits it".
	Plain401 bool
	// UpperReasons: condition names in binding errors are written as ErrorInfo reasons in upper snake case
	// (AUTHORIZATION_FAILED), the ErrorInfo convention. The draft fixes the code's spelling only inside a Task.
	UpperReasons bool
	// ECMAPatterns: manage_resource's input and output schemas carry ECMA-262 patterns Go's RE2 rejects
	// (lookahead, a \u escape). JSON Schema 2020-12 patterns "SHOULD be valid according to the regular
	// expression dialect described in ECMA-262"; the draft's dialect is that JSON Schema.
	ECMAPatterns bool
	// CodelessPreTask: describe_skill or an invocation naming an unadvertised skill, and a caller without a grant
	// for the skill, are refused before any task exists with the binding's error and no condition code. "A
	// server-side error detected before task creation MUST be carried using the error mechanism of the selected
	// A2A protocol binding and SHOULD expose the same machine-readable code when that binding permits it."
	CodelessPreTask bool
	// AuthorizeFirst: the resource, operation and constraint grants are decided before the arguments are
	// validated, and a request naming no resource_id is refused with authorization_failed. The draft fixes one
	// ordering only: "Before validating arguments or invoking domain logic, the receiving agent MUST compare both
	// values"; authorization must come "Before processing an invocation".
	AuthorizeFirst bool
	// Status413: a request over the payload limit is refused with a plain HTTP 413 Content Too Large (RFC 9110
	// §15.5.14), as a front end would, no JSON body. "When an operation is rejected because one of these limits
	// would be exceeded, the implementation MUST report the resource_limit_exceeded machine-readable condition …
	// through the applicable binding"; 413 is the HTTP binding's own report of a payload limit, and a pre-task
	// error "SHOULD expose the same machine-readable code when that binding permits it".
	Status413 bool
	// DescribeRefusedToB: describe_skill is refused to principal B with authorization_failed. The draft does not
	// oblige an agent to serve its interfaces to every authenticated caller.
	DescribeRefusedToB bool
	// SummaryArtifact: a completed Task carries, besides the primary result and its records, a human-readable
	// summary Artifact (a Text Part named summary). Base A2A permits any Artifacts; the draft requires "exactly one
	// primary result Artifact" and names only records, whose name is a declared kind.
	SummaryArtifact bool
	// OneOfOperations: manage_resource's input_schema is a discriminated union — a oneOf of one branch per
	// operation, each fixing operation by const and requiring its own members — instead of a root enum with
	// if/then. "its input_schema MUST require an unambiguous operation selector, enumerate the permitted
	// operations, and define any operation-specific input requirements" names no schema construct.
	OneOfOperations bool
	// NestedConstraints: measure_link_bandwidth carries its scope and window constraints nested
	// (/constraints/scope, /constraints/window/seconds) and its output shows them under other names
	// (/measured_scope, /aggregation_window_seconds). "The names, structures, and semantics of transmitted
	// constraints are defined by the domain-specific input schema rather than by this framework."
	NestedConstraints bool
	// Draft07Propose: propose_remediation's Schema References declare the draft-07 dialect (its schemas use no
	// keyword whose meaning differs). "dialect: schema language and version"; the draft fixes no dialect, and a
	// validator may use "a locally trusted copy of the meta-schema identified by the Schema Reference's dialect".
	Draft07Propose bool
	// ProposeDialect, when set, is the dialect propose_remediation's Schema References declare instead (tests of a
	// dialect the harness holds no meta-schema for; not a latitude).
	ProposeDialect string
	// ErrorTextPart: a refusal's final status Message carries a human-readable Text Part beside its one error Data
	// Part. "the Task's final status Message MUST contain exactly one Data Part whose data value has this form"
	// counts Data Parts.
	ErrorTextPart bool
	// NoRecords: evaluate_resource_condition publishes no supporting record and its output carries an empty
	// reference list. Records are carried "when present"; "This document does not mandate a common property name
	// or reference structure within every domain output."
	NoRecords bool
	// ResolutionMediaType: every Schema Reference's resolution also says "media_type": "application/schema+json"
	// (no locator: the schema is still inline). The prose forbids "an external schema locator in place of the
	// embedded content", not other members.
	ResolutionMediaType bool
	// CurrentNamedURI: evaluate_resource_condition's output schema_uri ends in a segment named current
	// (urn:example:resource-condition:output:current) while its version is exact. A schema_uri is an identity;
	// the assembler "MUST select an exact version and digest", which it does.
	CurrentNamedURI bool
	// NestingInArguments: the nesting limit is counted on the request's arguments only (metadata may nest
	// freely). "An implementation MUST enforce limits on … nesting" says not where a request's nesting is counted.
	NestingInArguments bool
	// EmbeddedDialectFragment: manage_resource's embedded schema resource declares "$schema" as the Schema
	// Reference's dialect with an empty fragment ("…/2020-12/schema#"). "Embedded schema resources MUST use that
	// same dialect": an empty fragment names the same resource.
	EmbeddedDialectFragment bool
	// InProgressReply (tests only, not a latitude: A2A 1.0 makes SendMessage wait) answers SendMessage with the task
	// still in TASK_STATE_WORKING and keeps the finished task for GetTask (a2atest.Options.InProgressReply).
	InProgressReply bool
	// ComposedInput: evaluate_resource_condition's input_schema wraps the same input in a top-level $ref into
	// $defs. The draft names no construct an input_schema must use.
	ComposedInput bool
}

// Start starts the reference agent with set on and returns its roles, the operator configuration it supplies for
// itself, and how to stop it.
func Start(set sabotage.Set) (roles map[string]string, cfg target.Config, closeFn func(), err error) {
	return StartWith(OptionsOf(set))(set)
}

// OptionsOf returns the options the latitudes in set switch on: the document's own (si.lat.*, one per field) and the two
// cross-cutting ones this agent honours in its own code (it builds its card and answers authentication itself).
func OptionsOf(set sabotage.Set) Options {
	return Options{
		SyncOnly:     crosscut.On(set, "schema-interface", sabotage.LatSyncOnly),
		ExtraMembers: set.On(sabotage.SILatExtraMembers),
		Plain401:     crosscut.On(set, "schema-interface", sabotage.LatPlain401),
		UpperReasons: set.On(sabotage.SILatUpperReasons),

		ECMAPatterns:       set.On(sabotage.SILatECMAPatterns),
		CodelessPreTask:    set.On(sabotage.SILatCodelessPreTask),
		AuthorizeFirst:     set.On(sabotage.SILatAuthorizeFirst),
		Status413:          set.On(sabotage.SILatStatus413),
		DescribeRefusedToB: set.On(sabotage.SILatDescribeRefusedB),
		SummaryArtifact:    set.On(sabotage.SILatSummaryArtifact),
		OneOfOperations:    set.On(sabotage.SILatOneOfOperations),
		NestedConstraints:  set.On(sabotage.SILatNestedConstraints),
		Draft07Propose:     set.On(sabotage.SILatDraft07Dialect),

		ErrorTextPart:       set.On(sabotage.SILatErrorTextPart),
		NoRecords:           set.On(sabotage.SILatNoRecords),
		ResolutionMediaType: set.On(sabotage.SILatResolutionMediaType),
		CurrentNamedURI:     set.On(sabotage.SILatCurrentNamedURI),
		NestingInArguments:  set.On(sabotage.SILatNestingInArguments),

		EmbeddedDialectFragment: set.On(sabotage.SILatEmbeddedDialectFragment),
		ComposedInput:           set.On(sabotage.SILatComposedInput),
	}
}

// StartWith returns the starter of the reference agent with the permitted other choices o.
func StartWith(o Options) func(sabotage.Set) (map[string]string, target.Config, func(), error) {
	return func(set sabotage.Set) (map[string]string, target.Config, func(), error) { return start(set, o) }
}

func start(set sabotage.Set, o Options) (roles map[string]string, cfg target.Config, closeFn func(), err error) {
	a, err := newAgent(set, o)
	if err != nil {
		return nil, cfg, nil, err
	}
	srv, err := a2atest.Start(a2atest.Agent{
		Name:   "extconf schema-interface reference agent",
		Card:   a.card,
		OnSend: a.onSend,
		Before: a.before,
		Routes: map[string]http.HandlerFunc{
			"POST /control/approve": a.controlApprove,
			"POST /control/revoke":  a.controlRevoke,
		},
	}, crosscut.Options(set, "schema-interface", a2atest.Options{TLS: true, InProgressReply: o.InProgressReply}))
	if err != nil {
		return nil, cfg, nil, err
	}
	prof, err := a.profile(srv.URL())
	if err != nil {
		srv.Close()
		return nil, cfg, nil, err
	}
	cfg = target.Config{
		Principals: map[string]target.Principal{
			"A": {Header: "Authorization", Value: "Bearer " + tokenA, Tenant: tenantA, ID: "A"},
			"B": {Header: "Authorization", Value: "Bearer " + tokenB, Tenant: tenantB, ID: "B"},
		},
		Requests: map[string][]string{ProfileKey: {string(prof)}},
	}
	return map[string]string{"schema-interface": srv.CardURL()}, cfg, srv.Close, nil
}

// ProfileKey is the target-configuration requests key carrying the schema-interface profile.
const ProfileKey = "schema-interface.profile"

func newAgent(set sabotage.Set, opts ...Options) (*agent, error) {
	srcs, err := sifx.Skills()
	if err != nil {
		return nil, err
	}
	a := &agent{set: set, skills: map[string]*skill{}, resources: seedResources(),
		approvals: map[string]int{}, approvedAny: map[string]bool{}, revoked: map[string]bool{}, decisions: map[string]bool{}}
	if len(opts) > 0 {
		a.opt = opts[0]
	}
	// Card order: the worked example first, the deliberately faulty skills last.
	rank := map[string]int{skillEvaluate: 0, skillManage: 1, skillMeasure: 2, skillPropose: 3, skillUnavailable: 4, skillCorrupt: 5, skillBrokenInit: 6}
	sort.SliceStable(srcs, func(i, j int) bool { return rank[srcs[i].SkillID] < rank[srcs[j].SkillID] })
	for _, s := range srcs {
		sk := a.build(s)
		a.skills[s.SkillID] = sk
		a.order = append(a.order, s.SkillID)
	}
	if sk := a.skills[skillEvaluate]; sk == nil || sk.initErr != nil {
		return nil, fmt.Errorf("schemaiface: the worked example skill did not assemble: %v", sk.initErr)
	}
	return a, nil
}

// build assembles, validates and publishes one skill (agent initialization steps 1–6).
func (a *agent) build(s sifx.SkillSource) *skill {
	sk := &skill{id: s.SkillID, card: s.Card, version: s.SkillVersion}
	a.sabotageSource(&s)
	if a.opt.OneOfOperations && s.SkillID == skillManage {
		editSchema(&s.Input, oneOfOperations)
	}
	if a.opt.EmbeddedDialectFragment && s.SkillID == skillManage {
		editSchema(&s.Input, func(m map[string]any) {
			obj(m, "$defs", "common")["$schema"] = skiface.Dialect2020 + "#"
		})
	}
	if a.opt.NoRecords && s.SkillID == skillEvaluate {
		editSchema(&s.Output, func(m map[string]any) { delete(obj(m, "properties", "supporting_record_refs"), "minItems") })
	}
	if a.opt.NestedConstraints && s.SkillID == skillMeasure {
		editSchema(&s.Input, nestConstraintsSchema)
		editSchema(&s.Output, renameOutputSchema)
	}
	if a.opt.ECMAPatterns && s.SkillID == skillManage {
		editSchema(&s.Input, func(m map[string]any) {
			obj(m, "$defs", "common", "$defs", "resource_id")["pattern"] = `^(?=[a-z])[a-z0-9-]{1,64}$`
		})
		editSchema(&s.Output, func(m map[string]any) {
			obj(m, "properties", "resource_id")["pattern"] = `^(?![0-9-])[\u0061-z0-9-]+$`
		})
	}
	if (a.opt.ComposedInput || a.set.On(sabotage.SIInputRefSkipped)) && s.SkillID == skillEvaluate {
		editSchema(&s.Input, wrapInDefs)
	}
	sk.doc = assemble(s, jcsDigest)
	if a.opt.ExtraMembers {
		sk.doc = editJSON(sk.doc, func(m map[string]any) {
			m["description"] = "Skill Interface Document of " + s.SkillID + " (extra members the prose permits)"
			for _, k := range []string{"input_schema", "output_schema"} {
				if r, ok := m[k].(map[string]any); ok {
					r["title"] = k
				}
			}
			if in, ok := m["interaction"].(map[string]any); ok {
				in["timeout_seconds"] = 30
				if s.SkillID == skillManage {
					delete(in, "cancellable")
				}
			}
		})
	}
	sk.digest = interfaceDigest(sk.doc)
	ver, err := skiface.VerifyDocument(sk.doc, skiface.Limits{})
	if err != nil {
		sk.initErr = err
		if !(s.SkillID == skillBrokenInit && a.set.On(sabotage.SIInitOpaqueFallback)) {
			return sk // failure to assemble or validate prevents advertisement; no opaque fallback
		}
	}
	sk.ver, sk.advertised = ver, true
	if ver != nil {
		sk.input = ver.Input
		sk.authority = ver.Doc.Authority
		if a.set.On(sabotage.SIAgentFormatAsAnnotation) && s.SkillID == skillMeasure {
			sk.input = compileWithoutFormat(s.Input)
		}
		if s.SkillID == skillEvaluate {
			if a.set.On(sabotage.SIInputRequiredTypesOnly) {
				sk.input = compileEdited(s.Input, requiredAndTypesOnly)
			}
			if a.set.On(sabotage.SIInputRefSkipped) {
				sk.input = compileEdited(s.Input, skipRefs)
			}
		}
	}
	if (a.opt.Draft07Propose || a.opt.ProposeDialect != "") && s.SkillID == skillPropose {
		// Validated under 2020-12 above (the same schemas); published declaring another dialect.
		dialect := "http://json-schema.org/draft-07/schema#"
		if a.opt.ProposeDialect != "" {
			dialect = a.opt.ProposeDialect
		}
		sk.doc = editJSON(sk.doc, func(m map[string]any) {
			for _, k := range []string{"input_schema", "output_schema"} {
				obj(m, k)["dialect"] = dialect
			}
		})
		sk.digest = interfaceDigest(sk.doc)
	}
	if a.opt.ResolutionMediaType || (a.opt.CurrentNamedURI && s.SkillID == skillEvaluate) {
		sk.doc = editJSON(sk.doc, func(m map[string]any) { a.latitudeRefs(s.SkillID, m) })
		sk.digest = interfaceDigest(sk.doc)
	}
	sk.published = a.sabotagePublished(s, sk.doc)
	sk.cardDigest = interfaceDigest(sk.published)
	if s.SkillID == skillPropose {
		// 1.1 replaced 1.0 (a backward-compatible revision); 1.0's binding is stale.
		sk.prev = []binding{{"1.0", interfaceDigest(withVersion(sk.doc, "1.0"))}}
	}
	return sk
}

// compileWithoutFormat is the sabotaged input validator that treats format as an annotation.
func compileWithoutFormat(in sifx.SchemaSource) *skiface.Compiled {
	editSchema(&in, stripFormat)
	c, err := skiface.CompileSchema(mustJSON(ref(in, jcsDigest)), skiface.Limits{})
	if err != nil {
		panic("schemaiface: " + err.Error())
	}
	return c
}

func stripFormat(m map[string]any) {
	delete(m, "format")
	for _, v := range m {
		switch x := v.(type) {
		case map[string]any:
			stripFormat(x)
		case []any:
			for _, e := range x {
				if mm, ok := e.(map[string]any); ok {
					stripFormat(mm)
				}
			}
		}
	}
}

// active returns the document and digest the agent currently compares invocations with.
func (a *agent) active(sk *skill) (version, digest string) {
	if sk.id == skillEvaluate && a.set.On(sabotage.SICardAdvertisesRemovedVersion) {
		d := withVersion(sk.doc, "1.1")
		return "1.1", interfaceDigest(d)
	}
	return sk.version, sk.digest
}

func (a *agent) skill(id string) *skill { return a.skills[id] }

var _ = a2a.StateCompleted
var _ = json.Valid

// latitudeRefs edits a published document's Schema References for the latitudes that touch them (after
// validation, as Draft07Propose does: the schemas themselves are unchanged).
func (a *agent) latitudeRefs(skillID string, m map[string]any) {
	refs := []map[string]any{obj(m, "input_schema"), obj(m, "output_schema")}
	recs, _ := m["supporting_record_schemas"].([]any)
	for _, r := range recs {
		if rm, ok := r.(map[string]any); ok {
			refs = append(refs, obj(rm, "schema_reference"))
		}
	}
	if a.opt.ResolutionMediaType {
		for _, r := range refs {
			obj(r, "resolution")["media_type"] = "application/schema+json"
		}
	}
	if a.opt.CurrentNamedURI && skillID == skillEvaluate {
		obj(m, "output_schema")["schema_uri"] = "urn:example:resource-condition:output:current"
	}
}
