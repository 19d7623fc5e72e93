package skiface

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/sabotage"
)

// Step names of the client procedure ("Client-agent behavior", steps 1–11); errors name the step they stop at.
const (
	Step1Card      = "1 retrieve the Agent Card"
	Step2Select    = "2 verify advertisement and select the binding"
	Step3Describe  = "3 call describe_skill"
	Step4Digest    = "4 verify the interface digest"
	Step5Validate  = "5 validate the document"
	Step6Schemas   = "6 verify embedded schemas"
	Step7Input     = "7 validate the skill input"
	Step7Policy    = "7 local permission and approval"
	Step8Delegate  = "8 delegate the task"
	Step9Receive   = "9 receive status, output and records"
	Step10Validate = "10 validate output and records"
	Step11Deliver  = "11 deliver to the caller"
	StepCompose    = "compose: compare Schema References"
	StepIntegrity  = "integrity-check the Skill Interface Schema"
)

// Client is the harness acting as a schema-interface client agent. It talks to targets only through the
// recording A2A client and consults the client-side toggles in Sabotage. Safe for sequential use; one Client
// may run many procedures (its cache and task registry persist across them).
type Client struct {
	A2A      *a2a.Client
	Sabotage sabotage.Faults
	Limits   Limits
	// Binding forces a protocol binding (a2a.BindingJSONRPC or a2a.BindingHTTPJSON); "" takes the card's first
	// interface this client speaks.
	Binding string
	// TrustedSchema replaces the packaged Skill Interface Schema copy (the integrity check runs on it).
	TrustedSchema []byte
	// NoCache keeps no validated document: describe_skill before every task (a client without a document cache,
	// as the contract's tests need one).
	NoCache bool
	Policy  Policy
	// Handlers are optional domain-aware checks keyed by the stable schema_uri of the schema an outgoing instance
	// is validated against; a handler's error rejects the invocation locally with constraint_rejected.
	Handlers map[string]func(instance json.RawMessage) error
	// Fetch is used only when the retrieval toggle is on (a deliberately broken validator): it must refuse
	// anything but loopback http(s) before dialing.
	Fetch func(ctx context.Context, u string) ([]byte, error)

	mu    sync.Mutex
	cache *cache
	tasks map[TaskKey]*TaskRecord
	hops  []Correlation
}

// Policy is the client's local invoke permission: it runs for every invocation whatever a document's authority
// member says (authority is descriptive, never a permission). nil members permit.
type Policy struct {
	Permit  func(skillID string, args json.RawMessage) error
	Approve func(skillID string, args json.RawMessage) error
}

// Request is one domain-skill invocation asked of the client.
type Request struct {
	CardURL   string
	SkillID   string
	Version   string          // the skill_version the caller expects; "" takes the advertised one
	Arguments json.RawMessage // the complete domain input
	Stream    bool            // SendStreamingMessage instead of SendMessage
	Poll      bool            // after completion, retrieve the Task with GetTask and use that copy
	Upstream  *TaskKey        // set when this invocation is a delegation hop of an upstream task
	// trusted marks a payload the (sabotaged) composition treats as already validated
	trusted bool
}

// TaskKey identifies a task: protocol task ids are scoped to the endpoint that issued them.
type TaskKey struct{ Endpoint, ID string }

// TaskRecord is a task the client created.
type TaskRecord struct {
	Key     TaskKey
	Binding string
	SkillID string
	State   string
	Task    *a2a.Task
	Updated time.Time
}

// Step is one entry of the procedure's diagnostics.
type Step struct {
	Name     string
	OK       bool
	Detail   string
	Exchange *a2a.Exchange
}

// Record is a received supporting record.
type Record struct {
	Kind, ArtifactID string
	Value            json.RawMessage
}

// Interface is a retrieved, validated Skill Interface Document bound to its target.
type Interface struct {
	Target, SkillID, SkillVersion, Digest string
	Verified                              *Verified
	FromCache                             bool
}

// Result is what one procedure produced.
type Result struct {
	Target   string // the agent identity: its card URL
	Endpoint string // the interface URL used
	Binding  string
	SkillID  string
	// the binding selected from the card and validated
	SkillVersion, InterfaceDigest string
	Interface                     *Interface
	Task                          *TaskKey // nil when no remote task exists (a local condition before delegation)
	RemoteState                   string
	RemoteCode                    string
	Output                        json.RawMessage // the validated domain output; nil when unusable or absent
	Records                       []Record
	Err                           *Error // the condition that stopped the procedure (local or reported by the agent)
	Local                         bool   // Err was detected by this client
	SchemaGoverned                bool
	InferredSchema                json.RawMessage // a schema the client derived on its own (never, unless sabotaged)
	Steps                         []Step
	Exchanges                     []*a2a.Exchange
}

func (r *Result) step(name string, ok bool, ex *a2a.Exchange, format string, a ...any) {
	r.Steps = append(r.Steps, Step{Name: name, OK: ok, Detail: fmt.Sprintf(format, a...), Exchange: ex})
	r.addExchange(ex)
}

func (r *Result) addExchange(ex *a2a.Exchange) {
	if ex == nil {
		return
	}
	for _, x := range r.Exchanges {
		if x == ex {
			return
		}
	}
	r.Exchanges = append(r.Exchanges, ex)
}

func (c *Client) on(id sabotage.ID) bool { return sabotage.From(c.Sabotage).On(id) }

func (c *Client) lim() Limits { return c.Limits.withDefaults() }

// nesting is the document nesting limit in force (0: none, only when the nesting toggle is on).
func (c *Client) nesting() int {
	if c.on(sabotage.SIClientNoLimitNesting) {
		return 0
	}
	return c.lim().MaxNesting
}

// stop records a local condition on the result and returns it.
func (c *Client) stop(res *Result, e *Error) (*Result, error) {
	if c.on(sabotage.SIClientErrorWithoutCode) {
		e.Code = "" // prose only
	}
	if e.Code == ResourceLimitExceeded && c.on(sabotage.SIClientLimitWrongCode) {
		e.Code = InterfaceInvalid
	}
	res.Err, res.Local = e, true
	if c.on(sabotage.SIClientFakeRemoteTask) {
		res.Task = &TaskKey{Endpoint: res.Endpoint, ID: "local-" + newID()}
		res.RemoteState = a2a.StateFailed
	}
	res.step(e.Step, false, nil, "%s", e.Error())
	return res, e
}

// remote records a condition the agent reported.
func remote(res *Result, step, code, msg string, ex *a2a.Exchange) (*Result, error) {
	e := &Error{Code: code, Step: step, Msg: "the agent reported: " + msg}
	res.Err, res.RemoteCode = e, code
	res.step(step, false, ex, "%s", e.Error())
	return res, e
}

// ---- step 1 and 2

type advertised struct {
	card      *a2a.AgentCard
	cardEx    *a2a.Exchange
	endpoint  string
	binding   string
	params    extParams
	hasExt    bool
	hasDesc   bool
	entry     *skillEntry
	agentSkil a2a.AgentSkill
	// sendVersion is the skill_version put in the request object: the advertised one (unless sabotaged)
	sendVersion string
}

type extParams struct {
	InterfaceVersion json.RawMessage `json:"interface_version"`
	Skills           []skillEntry    `json:"skills"`
}

type skillEntry struct {
	SkillID         string `json:"skill_id"`
	SkillVersion    string `json:"skill_version"`
	InterfaceDigest string `json:"interface_digest"`
}

func (c *Client) readCard(ctx context.Context, res *Result, cardURL string) (*advertised, *Error) {
	card, ex, err := c.A2A.FetchCard(ctx, cardURL, a2a.Call{Note: "schema-interface client: " + Step1Card})
	res.step(Step1Card, err == nil, ex, "card %s", cardURL)
	if err != nil {
		return nil, c.transportErr(Step1Card, "fetching the Agent Card", err)
	}
	a := &advertised{card: card, cardEx: ex}
	ep, binding, perr := c.endpoint(cardURL, card)
	if perr != nil {
		return nil, perr
	}
	a.endpoint, a.binding = ep, binding
	res.Endpoint, res.Binding = ep, binding
	if x, ok := card.Extension(ExtensionURI); ok {
		a.hasExt = true
		if len(x.Params) > 0 {
			if err := json.Unmarshal(x.Params, &a.params); err != nil {
				return a, &Error{Code: InterfaceInvalid, Step: Step1Card, Path: "/params", Msg: "the schema-interface extension params do not decode", Err: err}
			}
		}
	}
	_, a.hasDesc = card.Skill(DescribeSkill)
	return a, nil
}

// endpoint picks the interface to call; it must stay on the card's host (the harness never follows a target
// elsewhere).
func (c *Client) endpoint(cardURL string, card *a2a.AgentCard) (string, string, *Error) {
	cu, err := url.Parse(cardURL)
	if err != nil {
		return "", "", errf("", Step1Card, "", "card URL %q: %v", cardURL, err)
	}
	for _, want := range []string{c.Binding, a2a.BindingJSONRPC, a2a.BindingHTTPJSON} {
		if want == "" {
			continue
		}
		i, ok := card.Interface(want)
		if !ok {
			if want == c.Binding {
				return "", "", errf("", Step1Card, "/supportedInterfaces", "the card offers no %s interface", want)
			}
			continue
		}
		u, err := url.Parse(i.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || !strings.EqualFold(u.Hostname(), cu.Hostname()) {
			return "", "", errf("", Step1Card, "/supportedInterfaces", "interface URL %q is not http(s) on the card's host %s (refused by harness policy)", i.URL, cu.Hostname())
		}
		return i.URL, want, nil
	}
	return "", "", errf("", Step1Card, "/supportedInterfaces", "the card offers neither a JSONRPC nor an HTTP+JSON interface")
}

func (c *Client) transportErr(step, what string, err error) *Error {
	var le *a2a.LimitError
	if errors.As(err, &le) && le.Limit == a2a.LimitMaxBody {
		return &Error{Code: ResourceLimitExceeded, Step: step, Msg: what + ": the response exceeds the payload limit", Err: err}
	}
	return &Error{Step: step, Msg: what, Err: err}
}

// selectBinding is step 2: describe_skill and the skill advertised, interface version supported, exactly one
// binding for the skill.
func (c *Client) selectBinding(a *advertised, req Request) *Error {
	if !a.hasExt || !a.hasDesc {
		what := "the schema-interface extension"
		if a.hasExt {
			what = "the describe_skill skill"
		}
		return errf(SkillNotAdvertised, Step2Select, "", "the card does not advertise %s: the agent does not provide the schema-interface procedure", what)
	}
	var iv string
	if err := json.Unmarshal(a.params.InterfaceVersion, &iv); err != nil || iv != InterfaceVersion {
		code := UnsupportedInterfaceVersion
		if c.on(sabotage.SIClientVersionAsInterfaceInvalid) {
			code = InterfaceInvalid
		}
		return errf(code, Step2Select, "/params/interface_version", "the advertisement uses interface version %s; this client supports %s", string(a.params.InterfaceVersion), InterfaceVersion)
	}
	var found []skillEntry
	for _, s := range a.params.Skills {
		if s.SkillID == req.SkillID {
			found = append(found, s)
		}
	}
	sk, inCard := a.card.Skill(req.SkillID)
	if len(found) == 0 || !inCard {
		code := SkillNotAdvertised
		if c.on(sabotage.SIClientUnadvertisedWrongCode) {
			code = InterfaceUnavailable
		}
		return errf(code, Step2Select, "", "skill %q is not advertised (in skills[]: %v, in the extension: %v)", req.SkillID, inCard, len(found) > 0)
	}
	if len(found) > 1 {
		return errf(InterfaceInvalid, Step2Select, "/params/skills", "the card advertises %d bindings for %q; version 1.0 permits one", len(found), req.SkillID)
	}
	e := found[0]
	if req.Version != "" && req.Version != e.SkillVersion {
		if !(c.on(sabotage.SIClientInferVersionRange) && major(req.Version) == major(e.SkillVersion)) {
			return errf(SkillNotAdvertised, Step2Select, "", "version %s of %q is not advertised (the card advertises %s); versions are never inferred or negotiated", req.Version, req.SkillID, e.SkillVersion)
		}
		a.sendVersion = req.Version // the broken client assumes a compatible range
	}
	a.entry, a.agentSkil = &e, sk
	if a.sendVersion == "" {
		a.sendVersion = e.SkillVersion
	}
	return nil
}

func major(v string) string {
	m, _, _ := strings.Cut(v, ".")
	return m
}

// ---- step 3 to 6

// Describe runs steps 1–6 for one skill and returns the validated document (from the cache when bound to the
// same target, skill id, skill version, interface version and digest).
func (c *Client) Describe(ctx context.Context, cardURL, skillID string) (*Interface, *Result, error) {
	res := &Result{Target: cardURL, SkillID: skillID}
	a, e := c.readCard(ctx, res, cardURL)
	if e != nil {
		_, err := c.stop(res, e)
		return nil, res, err
	}
	if e := c.selectBinding(a, Request{SkillID: skillID}); e != nil {
		_, err := c.stop(res, e)
		return nil, res, err
	}
	res.SkillVersion, res.InterfaceDigest = a.entry.SkillVersion, a.entry.InterfaceDigest
	iface, e := c.describe(ctx, res, a, skillID)
	if e != nil {
		_, err := c.stopOrRemote(res, e)
		return nil, res, err
	}
	res.Interface = iface
	return iface, res, nil
}

func (c *Client) stopOrRemote(res *Result, e *Error) (*Result, error) {
	if res.RemoteCode != "" && res.Err == e {
		return res, e
	}
	return c.stop(res, e)
}

func (c *Client) cacheKey(target, skill, version, digest string) cacheKey {
	k := cacheKey{Target: target, SkillID: skill, SkillVersion: version, InterfaceVersion: InterfaceVersion, Digest: digest}
	if c.on(sabotage.SIClientCacheNotBoundToTarget) {
		k.Target = ""
	}
	return k
}

func (c *Client) getCache() *cache {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cache == nil {
		c.cache = newCache()
	}
	return c.cache
}

// CacheLen is the number of documents the client holds.
func (c *Client) CacheLen() int { return c.getCache().len() }

func (c *Client) describe(ctx context.Context, res *Result, a *advertised, skillID string) (*Interface, *Error) {
	key := c.cacheKey(res.Target, skillID, a.entry.SkillVersion, a.entry.InterfaceDigest)
	if v := c.getCache().get(key); v != nil && !c.NoCache {
		res.step(Step3Describe, true, nil, "cached document for %s %s %s (bound to %s)", skillID, a.entry.SkillVersion, a.entry.InterfaceDigest, key.Target)
		return &Interface{Target: res.Target, SkillID: skillID, SkillVersion: a.entry.SkillVersion, Digest: a.entry.InterfaceDigest, Verified: v, FromCache: true}, nil
	}
	// step 3
	args := map[string]any{"skill_id": skillID}
	if c.on(sabotage.SIClientNegotiateVersion) {
		args["skill_version"] = a.entry.SkillVersion
	}
	var obj any = map[string]any{"skill": DescribeSkill, "arguments": args}
	if c.on(sabotage.SIClientDescribeFlatSkillID) {
		obj = map[string]any{"skill": DescribeSkill, "skill_id": skillID}
	}
	msg := c.message(obj, c.on(sabotage.SIClientDescribeExtraTextPart), c.on(sabotage.SIClientDescribeRoleAgent))
	task, ex, e := c.send(ctx, res, a, msg, false, Step3Describe, c.on(sabotage.SIClientDescribeCustomMethod))
	if e != nil {
		return nil, e
	}
	if task.Status.State != a2a.StateCompleted {
		code, m := errorCondition(task)
		if code == "" {
			code = InterfaceUnavailable
			m = "describe_skill ended in " + task.Status.State + " without a condition code"
		}
		res.RemoteState = task.Status.State
		remote(res, Step3Describe, code, m, ex)
		return nil, res.Err
	}
	doc, digest, e := describeResult(task, skillID)
	if e != nil {
		return nil, e
	}
	res.step(Step3Describe, true, ex, "describe_skill(%s) completed", skillID)

	// step 4
	if digest != a.entry.InterfaceDigest {
		return nil, errf(InterfaceInvalid, Step4Digest, "/result/interface_digest", "describe_skill returned interface_digest %s, the card advertises %s", digest, a.entry.InterfaceDigest)
	}
	if !c.on(sabotage.SIClientSkipDocumentDigest) {
		calc, err := InterfaceDigest(doc)
		if err != nil {
			return nil, &Error{Code: InterfaceInvalid, Step: Step4Digest, Path: "/result/interface", Msg: "the document does not satisfy the JCS input requirements", Err: err}
		}
		if calc != digest {
			return nil, errf(InterfaceInvalid, Step4Digest, "/result/interface", "calculated digest %s differs from the advertised and returned %s", calc, digest)
		}
	}
	res.step(Step4Digest, true, nil, "digest %s", digest)

	// step 5: the version first (a document of another version is not validated against the 1.0 schema)
	var iv string
	if err := json.Unmarshal(mustRaw(doc, "interface_version"), &iv); err != nil || iv != InterfaceVersion {
		code := UnsupportedInterfaceVersion
		if c.on(sabotage.SIClientVersionAsInterfaceInvalid) {
			code = InterfaceInvalid
		}
		return nil, errf(code, Step5Validate, "/interface_version", "the returned document has interface version %s; this client supports %s", string(mustRaw(doc, "interface_version")), InterfaceVersion)
	}
	if e := c.validateDocument(doc); e != nil {
		if e.Code == InterfaceInvalid && c.on(sabotage.SIClientAcceptInvalidDocument) {
			res.step(Step5Validate, true, nil, "(sabotaged) accepted a document failing the Skill Interface Schema: %s", e.Error())
		} else {
			return nil, e
		}
	}
	d, err := parseDocument(doc, c.nesting())
	if err != nil {
		return nil, err.(*Error)
	}
	if d.SkillID != skillID && !c.on(sabotage.SIClientAcceptOtherSkillDocument) {
		return nil, errf(InterfaceInvalid, Step5Validate, "/skill_id", "the returned document is for skill %q, not the selected %q", d.SkillID, skillID)
	}
	if d.SkillVersion != a.entry.SkillVersion && !c.on(sabotage.SIClientAcceptOtherVersionDocument) {
		return nil, errf(InterfaceInvalid, Step5Validate, "/skill_version", "the returned document has skill_version %q, the card advertises %q", d.SkillVersion, a.entry.SkillVersion)
	}
	res.step(Step5Validate, true, nil, "valid Skill Interface Document for %s %s", d.SkillID, d.SkillVersion)

	// step 6
	v, err := verifyRefs(doc, c.lim(), c.nesting(), c.compileOpts(ctx), Step6Schemas)
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			return nil, e
		}
		return nil, &Error{Code: InterfaceInvalid, Step: Step6Schemas, Err: err}
	}
	res.step(Step6Schemas, true, nil, "%d embedded schemas verified and compiled", len(d.References()))
	if c.NoCache {
		return &Interface{Target: res.Target, SkillID: skillID, SkillVersion: d.SkillVersion, Digest: digest, Verified: v}, nil
	}
	if e := c.getCache().put(key, v, c.lim(), c.on(sabotage.SIClientNoLimitCacheConsumption)); e != nil {
		return nil, e
	}
	return &Interface{Target: res.Target, SkillID: skillID, SkillVersion: d.SkillVersion, Digest: digest, Verified: v}, nil
}

func mustRaw(doc []byte, member string) json.RawMessage {
	var m map[string]json.RawMessage
	_ = json.Unmarshal(doc, &m)
	return m[member]
}

func (c *Client) compileOpts(ctx context.Context) compileOpts {
	o := compileOpts{
		rawDigest:         c.on(sabotage.SIClientDigestRawBytes),
		noSizeLimit:       c.on(sabotage.SIClientNoLimitSchemaSize),
		noNestingLimit:    c.on(sabotage.SIClientNoLimitNesting),
		noRefDepthLimit:   c.on(sabotage.SIClientNoLimitReferenceDepth),
		noCycleLimit:      c.on(sabotage.SIClientNoLimitReferenceCycles),
		noCompileTimeout:  c.on(sabotage.SIClientNoLimitCompilationTime),
		allowOtherDialect: c.on(sabotage.SIClientAcceptMixedDialect),
		unresolvedAsTrue:  c.on(sabotage.SIClientIgnoreUnresolvedRef),
		formatAnnotation:  c.on(sabotage.SIClientFormatAsAnnotation),
		lenientDateTime:   c.on(sabotage.SIClientLenientDateTime),
	}
	if c.on(sabotage.SIClientValidatorRetrievalEnabled) && c.Fetch != nil {
		o.fetch = func(u string) (any, error) {
			b, err := c.Fetch(ctx, u)
			if err != nil {
				return nil, err
			}
			return decode(b)
		}
	}
	return o
}

// validateDocument is step 5's schema validation with the client's trusted copy, integrity-checked first.
func (c *Client) validateDocument(doc []byte) *Error {
	if c.TrustedSchema == nil && !c.on(sabotage.SIClientSchemaLoosened) {
		sch, err := packagedTrusted()
		if err != nil {
			return &Error{Step: StepIntegrity, Msg: "the packaged Skill Interface Schema is unusable", Err: err}
		}
		if err := validateWith(sch, doc, c.nesting(), Step5Validate); err != nil {
			return asError(err, InterfaceInvalid, Step5Validate)
		}
		return nil
	}
	copyB := c.TrustedSchema
	if copyB == nil {
		copyB = TrustedSchema()
	}
	if c.on(sabotage.SIClientSchemaLoosened) {
		// a locally modified copy: authority no longer constrained (its pin updated along with it)
		var m map[string]any
		_ = json.Unmarshal(copyB, &m)
		if p, ok := m["properties"].(map[string]any); ok {
			delete(p, "authority")
		}
		copyB, _ = json.Marshal(m)
	} else if !c.on(sabotage.SIClientSkipSchemaIntegrity) {
		if err := CheckTrustedSchema(copyB); err != nil {
			e := asError(err, "", StepIntegrity)
			e.Msg = "refusing to validate with an unverified Skill Interface Schema copy: " + e.Msg
			return e
		}
	}
	sch, err := compileTrusted(copyB)
	if err != nil {
		return &Error{Step: StepIntegrity, Msg: "the Skill Interface Schema copy does not compile", Err: err}
	}
	if err := validateWith(sch, doc, c.nesting(), Step5Validate); err != nil {
		return asError(err, InterfaceInvalid, Step5Validate)
	}
	return nil
}

func asError(err error, code, step string) *Error {
	var e *Error
	if errors.As(err, &e) {
		if e.Step == "" {
			e.Step = step
		}
		return e
	}
	return &Error{Code: code, Step: step, Err: err}
}

// describeResult checks the describe_skill response mapping and returns the document bytes and its digest.
func describeResult(task *a2a.Task, skillID string) ([]byte, string, *Error) {
	bad := func(path, format string, a ...any) ([]byte, string, *Error) {
		return nil, "", errf(InterfaceInvalid, Step3Describe, path, format, a...)
	}
	if len(task.Artifacts) != 1 {
		return bad("/artifacts", "the describe_skill task has %d artifacts, the mapping requires exactly one", len(task.Artifacts))
	}
	art := task.Artifacts[0]
	if art.Name != DescribeSkill {
		return bad("/artifacts/0/name", "the artifact is named %q, not describe_skill", art.Name)
	}
	if len(art.Parts) != 1 || len(art.Parts[0].Data) == 0 {
		return bad("/artifacts/0/parts", "the artifact must hold exactly one Data Part (has %d parts)", len(art.Parts))
	}
	var obj struct {
		Skill  string `json:"skill"`
		Result *struct {
			InterfaceDigest *string         `json:"interface_digest"`
			Interface       json.RawMessage `json:"interface"`
		} `json:"result"`
	}
	if err := json.Unmarshal(art.Parts[0].Data, &obj); err != nil {
		return bad("/artifacts/0/parts/0/data", "the data value is not the describe_skill result object: %v", err)
	}
	if obj.Skill != DescribeSkill || obj.Result == nil {
		return bad("/artifacts/0/parts/0/data", "the data value lacks skill describe_skill or result")
	}
	if obj.Result.InterfaceDigest == nil {
		return bad("/artifacts/0/parts/0/data/result/interface_digest", "result.interface_digest is absent")
	}
	doc := bytes.TrimSpace(obj.Result.Interface)
	if len(doc) == 0 || doc[0] != '{' {
		return bad("/artifacts/0/parts/0/data/result/interface", "result.interface is not a JSON object (an opaque payload is never a substitute)")
	}
	return doc, *obj.Result.InterfaceDigest, nil
}

// errorCondition reads the error Data Part of a terminal task's status message.
func errorCondition(task *a2a.Task) (string, string) {
	if task.Status.Message == nil {
		return "", ""
	}
	for _, p := range task.Status.Message.Parts {
		if len(p.Data) == 0 {
			continue
		}
		var d struct {
			Error struct {
				Code    string `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(p.Data, &d) == nil && d.Error.Code != "" {
			return d.Error.Code, d.Error.Message
		}
	}
	return "", ""
}

// ---- A2A plumbing

func newID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func (c *Client) message(obj any, extraText, roleAgent bool) a2a.Message {
	m := a2a.Message{MessageID: "extconf-" + newID(), Role: a2a.RoleUser}
	if roleAgent {
		m.Role = a2a.RoleAgent
	}
	if c.on(sabotage.SIClientTextPartRequests) {
		b, _ := json.Marshal(obj)
		m.Parts = []a2a.Part{a2a.TextPart(string(b))}
	} else {
		m.Parts = []a2a.Part{a2a.DataPart(obj)}
	}
	if extraText {
		m.Parts = append([]a2a.Part{a2a.TextPart("request object follows")}, m.Parts...)
	}
	if !c.on(sabotage.SIClientNoMessageExtensions) {
		m.Extensions = []string{ExtensionURI}
	}
	return m
}

func (c *Client) call(note string) a2a.Call {
	call := a2a.Call{Note: "schema-interface client: " + note}
	if !c.on(sabotage.SIClientNoActivationHeader) {
		call.Extensions = []string{ExtensionURI}
	}
	return call
}

// send delivers one request object and returns the terminal (or last) task. A binding error or an answer that is
// not a task is an *Error: the condition code when the agent gave one, otherwise a transport failure.
func (c *Client) send(ctx context.Context, res *Result, a *advertised, msg a2a.Message, stream bool, step string, customMethod bool) (*a2a.Task, *a2a.Exchange, *Error) {
	req := a2a.SendMessageRequest{Message: msg}
	call := c.call(step)
	var (
		ex   *a2a.Exchange
		task *a2a.Task
		msgR *a2a.Message
		rerr *a2a.RPCError
		err  error
	)
	switch {
	case customMethod && a.binding == a2a.BindingJSONRPC:
		var resp *a2a.RPCResponse
		resp, ex, err = c.A2A.RPC(ctx, a.endpoint, DescribeSkill, map[string]any{"message": msg}, call)
		if err == nil && resp.Error != nil {
			rerr = resp.Error
		} else if err == nil {
			var sr a2a.SendResult
			if derr := json.Unmarshal(resp.Result, &sr); derr == nil {
				task, msgR = sr.Task, sr.Message
			}
		}
	case stream:
		task, msgR, ex, rerr, err = c.stream(ctx, a, req, call)
	case a.binding == a2a.BindingHTTPJSON:
		task, msgR, ex, rerr, err = c.restSend(ctx, a, req, call)
	default:
		var sr *a2a.SendResult
		var resp *a2a.RPCResponse
		sr, resp, ex, err = c.A2A.SendMessage(ctx, a.endpoint, req, call)
		if resp != nil && resp.Error != nil {
			rerr = resp.Error
		}
		if sr != nil {
			task, msgR = sr.Task, sr.Message
		}
	}
	res.addExchange(ex)
	if err != nil {
		return nil, ex, c.transportErr(step, "sending the request", err)
	}
	if ex != nil && !c.on(sabotage.SIClientNoLimitPayloadSize) && int64(len(ex.ResponseBody)) > c.lim().MaxPayloadBytes {
		return nil, ex, errf(ResourceLimitExceeded, step, "", "the response is %d bytes, over the payload limit", len(ex.ResponseBody))
	}
	if rerr != nil {
		code := bindingCondition(rerr)
		res.step(step, false, ex, "binding error %d: %s", rerr.Code, rerr.Message)
		if code != "" {
			return nil, ex, &Error{Code: code, Step: step, Msg: "the agent refused before creating a task: " + rerr.Message}
		}
		return nil, ex, &Error{Step: step, Msg: fmt.Sprintf("the agent answered with binding error %d: %s", rerr.Code, rerr.Message)}
	}
	if task == nil {
		what := "neither a task nor a message"
		if msgR != nil {
			what = "a message instead of a task"
		}
		return nil, ex, &Error{Code: InterfaceInvalid, Step: step, Msg: "the agent answered with " + what}
	}
	return task, ex, nil
}

// bindingCondition finds a condition code in a binding error: an ErrorInfo reason or an {"error":{"code"}} object.
func bindingCondition(e *a2a.RPCError) string {
	var items []json.RawMessage
	if json.Unmarshal(e.Data, &items) != nil {
		items = []json.RawMessage{e.Data}
	}
	for _, it := range items {
		var d struct {
			Reason string `json:"reason"`
			Error  struct {
				Code string `json:"code"`
			} `json:"error"`
		}
		if json.Unmarshal(it, &d) != nil {
			continue
		}
		for _, s := range []string{d.Reason, d.Error.Code} {
			if IsCode(s) {
				return s
			}
		}
	}
	return ""
}

func (c *Client) restSend(ctx context.Context, a *advertised, req a2a.SendMessageRequest, call a2a.Call) (*a2a.Task, *a2a.Message, *a2a.Exchange, *a2a.RPCError, error) {
	ex, err := c.A2A.REST(ctx, http.MethodPost, a.endpoint, "/message:send", req, call)
	if err != nil {
		return nil, nil, ex, nil, err
	}
	if ex.Status != http.StatusOK {
		return nil, nil, ex, restError(ex.ResponseBody, ex.Status), nil
	}
	var sr a2a.SendResult
	if err := a2a.DecodeStrict(ex.ResponseBody, &sr); err != nil {
		return nil, nil, ex, nil, err
	}
	return sr.Task, sr.Message, ex, nil, nil
}

// restError maps a google.rpc.Status body to the JSON-RPC error shape (details become data).
func restError(body []byte, status int) *a2a.RPCError {
	var s struct {
		Error struct {
			Code    int             `json:"code"`
			Message string          `json:"message"`
			Details json.RawMessage `json:"details"`
		} `json:"error"`
	}
	_ = json.Unmarshal(body, &s)
	return &a2a.RPCError{Code: status, Message: s.Error.Message, Data: s.Error.Details}
}

func (c *Client) stream(ctx context.Context, a *advertised, req a2a.SendMessageRequest, call a2a.Call) (*a2a.Task, *a2a.Message, *a2a.Exchange, *a2a.RPCError, error) {
	var events []a2a.StreamEvent
	var ex *a2a.Exchange
	var err error
	if a.binding == a2a.BindingHTTPJSON {
		ex, err = c.A2A.REST(ctx, http.MethodPost, a.endpoint, "/message:stream", req, call)
		if err == nil && ex.Status != http.StatusOK {
			return nil, nil, ex, restError(ex.ResponseBody, ex.Status), nil
		}
		if err == nil {
			for _, d := range ex.Events {
				var e a2a.StreamEvent
				if json.Unmarshal(d, &e) == nil {
					events = append(events, e)
				}
			}
		}
	} else {
		var resps []a2a.RPCResponse
		events, resps, ex, err = c.A2A.SendStreamingMessage(ctx, a.endpoint, req, call)
		for _, r := range resps {
			if r.Error != nil {
				return nil, nil, ex, r.Error, nil
			}
		}
	}
	if err != nil {
		return nil, nil, ex, nil, err
	}
	task, msg := Assemble(events)
	return task, msg, ex, nil, nil
}

// Assemble folds stream events into the task they describe: artifact updates with append=true add their parts
// to the artifact with the same id, any other update replaces it; status updates set the status.
func Assemble(events []a2a.StreamEvent) (*a2a.Task, *a2a.Message) {
	var task *a2a.Task
	for _, e := range events {
		switch {
		case e.Message != nil && task == nil:
			return nil, e.Message
		case e.Task != nil:
			t := *e.Task
			task = &t
		case task == nil:
			continue
		case e.StatusUpdate != nil:
			task.Status = e.StatusUpdate.Status
		case e.ArtifactUpdate != nil:
			u := e.ArtifactUpdate
			i := -1
			for j := range task.Artifacts {
				if task.Artifacts[j].ArtifactID == u.Artifact.ArtifactID {
					i = j
				}
			}
			switch {
			case i < 0:
				task.Artifacts = append(task.Artifacts, u.Artifact)
			case u.Append:
				task.Artifacts[i].Parts = append(task.Artifacts[i].Parts, u.Artifact.Parts...)
			default:
				task.Artifacts[i] = u.Artifact
			}
		}
	}
	return task, nil
}

// ---- the whole procedure

// Invoke runs the eleven steps for one domain-skill invocation.
func (c *Client) Invoke(ctx context.Context, req Request) (*Result, error) {
	res := &Result{Target: req.CardURL, SkillID: req.SkillID}
	a, e := c.readCard(ctx, res, req.CardURL)
	if e != nil {
		return c.stop(res, e)
	}
	if e := c.selectBinding(a, req); e != nil {
		if e.Code == SkillNotAdvertised && (!a.hasExt || !a.hasDesc) && c.on(sabotage.SIClientAssumeConformance) {
			return c.blindDescribe(ctx, res, a, req.SkillID, e)
		}
		if e.Code == SkillNotAdvertised && a.hasExt && !a.hasDesc && c.on(sabotage.SIClientDelegateWithoutDescribeSkill) {
			return c.blindDelegate(ctx, res, a, req, e)
		}
		if (e.Code == SkillNotAdvertised || e.Code == InterfaceUnavailable) && a.hasExt && a.hasDesc &&
			(c.on(sabotage.SIClientContinueAfterLocalError) || c.on(sabotage.SIClientDescribeUnadvertised)) {
			return c.blindDescribe(ctx, res, a, req.SkillID, e)
		}
		return c.stop(res, e)
	}
	res.SkillVersion, res.InterfaceDigest = a.entry.SkillVersion, a.entry.InterfaceDigest
	res.step(Step2Select, true, nil, "selected %s %s %s", req.SkillID, a.entry.SkillVersion, a.entry.InterfaceDigest)

	if c.on(sabotage.SIClientDelegateWithoutDescribe) {
		return c.blindDelegate(ctx, res, a, req, nil)
	}
	iface, e := c.describe(ctx, res, a, req.SkillID)
	if e != nil {
		if res.RemoteCode != "" && c.on(sabotage.SIClientDelegateAfterDescribeFailure) {
			return c.blindDelegate(ctx, res, a, req, e)
		}
		if e.Code == InterfaceInvalid && c.on(sabotage.SIClientDelegateAfterInvalid) {
			return c.blindDelegate(ctx, res, a, req, e)
		}
		return c.stopOrRemote(res, e)
	}
	res.Interface = iface
	v := iface.Verified

	// step 7
	if !c.on(sabotage.SIClientSkipInputValidation) && !req.trusted {
		if e := c.checkInstance(v.Doc.InputSchema, v.Input, req.Arguments, InputInvalid, Step7Input, "the skill input"); e != nil {
			return c.stop(res, e)
		}
		res.step(Step7Input, true, nil, "arguments validate against input_schema %s", v.Doc.InputSchema.SchemaURI)
	}
	if e := c.permit(v.Doc, req); e != nil {
		return c.stop(res, e)
	}
	return c.delegate(ctx, res, a, req, v)
}

// checkInstance validates an outgoing instance and runs the domain handler for its schema.
func (c *Client) checkInstance(ref SchemaReference, cs *Compiled, inst json.RawMessage, code, step, what string) *Error {
	if len(bytes.TrimSpace(inst)) == 0 {
		inst = json.RawMessage("null")
	}
	if vs := cs.ValidateJSON(inst); len(vs) > 0 {
		if vs[0].Keyword == "resource_limit" {
			return errf(ResourceLimitExceeded, step, "", "%s: %s", what, vs[0].Message)
		}
		return &Error{Code: code, Step: step, Path: vs[0].InstancePath, Details: c.details(vs),
			Msg: fmt.Sprintf("%s does not validate against %s: %s", what, ref.SchemaURI, vs[0].Message)}
	}
	return c.checkHandler(ref, inst, step, what)
}

// checkHandler runs the optional domain-aware handler for the schema an instance is bound to.
func (c *Client) checkHandler(ref SchemaReference, inst json.RawMessage, step, what string) *Error {
	if h := c.Handlers[ref.SchemaURI]; h != nil {
		if err := h(inst); err != nil {
			cc := ConstraintRejected
			if c.on(sabotage.SIClientConstraintWrongCode) {
				cc = InputInvalid
			}
			return &Error{Code: cc, Step: step, Msg: what + " fails the domain handler for " + ref.SchemaURI, Err: err}
		}
	}
	return nil
}

func (c *Client) details(vs []Violation) []Detail {
	d := Details(vs)
	if c.on(sabotage.SIClientDetailsNoInstancePath) {
		for i := range d {
			d[i].InstancePath = ""
		}
	}
	return d
}

// permit is the local permission and approval step; the document's authority member never replaces it.
func (c *Client) permit(d *Document, req Request) *Error {
	skipPermit := c.on(sabotage.SIClientAuthorityAsPermission) && d.Authority.DefaultMode == "observe_only"
	skipApprove := c.on(sabotage.SIClientAuthorityAsPermission) && !d.Authority.ApprovalMayBeRequired
	if c.Policy.Permit != nil && !skipPermit {
		if err := c.Policy.Permit(req.SkillID, req.Arguments); err != nil {
			return &Error{Code: AuthorizationFailed, Step: Step7Policy, Msg: "the local policy does not permit invoking " + req.SkillID, Err: err}
		}
	}
	if c.Policy.Approve != nil && !skipApprove {
		if err := c.Policy.Approve(req.SkillID, req.Arguments); err != nil {
			return &Error{Code: AuthorizationFailed, Step: Step7Policy, Msg: "the local approval step for " + req.SkillID + " did not approve", Err: err}
		}
	}
	return nil
}

// blindDescribe is what a broken client does: send describe_skill although the card rules it out.
func (c *Client) blindDescribe(ctx context.Context, res *Result, a *advertised, skillID string, why *Error) (*Result, error) {
	msg := c.message(map[string]any{"skill": DescribeSkill, "arguments": map[string]any{"skill_id": skillID}}, false, false)
	_, _, _ = c.send(ctx, res, a, msg, false, Step3Describe, false)
	return c.stop(res, why)
}

// blindDelegate is what a broken client does: delegate without a validated document.
func (c *Client) blindDelegate(ctx context.Context, res *Result, a *advertised, req Request, why *Error) (*Result, error) {
	version, digest := "", ""
	if a.entry != nil {
		version, digest = a.entry.SkillVersion, a.entry.InterfaceDigest
	} else {
		for _, s := range a.params.Skills {
			if s.SkillID == req.SkillID {
				version, digest = s.SkillVersion, s.InterfaceDigest
			}
		}
	}
	obj := map[string]any{"skill": req.SkillID, "skill_version": version, "interface_digest": digest, "arguments": json.RawMessage(orNull(req.Arguments))}
	task, ex, e := c.send(ctx, res, a, c.message(obj, false, false), req.Stream, Step8Delegate, false)
	if e == nil {
		c.track(res, a, req, task)
		res.step(Step8Delegate, true, ex, "(sabotaged) delegated without a validated document")
		res.Output = primaryResult(task, req.SkillID)
	}
	if why != nil {
		res.Err, res.Local = why, true
		return res, why
	}
	return res, nil
}

func orNull(b json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(b)) == 0 {
		return json.RawMessage("null")
	}
	return b
}

func primaryResult(task *a2a.Task, skill string) json.RawMessage {
	if task == nil {
		return nil
	}
	for _, art := range task.Artifacts {
		if art.Name == skill && len(art.Parts) == 1 {
			var o struct {
				Result json.RawMessage `json:"result"`
			}
			if json.Unmarshal(art.Parts[0].Data, &o) == nil {
				return o.Result
			}
		}
	}
	return nil
}

// delegate is steps 8–11.
func (c *Client) delegate(ctx context.Context, res *Result, a *advertised, req Request, v *Verified) (*Result, error) {
	skill := req.SkillID
	if c.on(sabotage.SIClientInvokeSkillName) && a.agentSkil.Name != "" {
		skill = a.agentSkil.Name
	}
	version, digest := a.sendVersion, a.entry.InterfaceDigest
	if c.on(sabotage.SIClientInvokeWrongSkillVersion) {
		version = bumpMinor(version)
	}
	if c.on(sabotage.SIClientInvokeWrongDigest) {
		digest = v.Doc.InputSchema.Digest
	}
	obj := map[string]any{"skill": skill, "skill_version": version, "interface_digest": digest, "arguments": json.RawMessage(orNull(req.Arguments))}
	if c.on(sabotage.SIClientInvokeOmitDigest) {
		delete(obj, "interface_digest")
	}
	if c.on(sabotage.SIClientInvokeFlatArguments) {
		delete(obj, "arguments")
		var m map[string]json.RawMessage
		_ = json.Unmarshal(req.Arguments, &m)
		for k, x := range m {
			obj[k] = x
		}
	}
	msg := c.message(obj, c.on(sabotage.SIClientInvokeExtraTextPart), false)
	if req.Upstream != nil && c.on(sabotage.SIClientReuseUpstreamTaskID) {
		msg.TaskID = req.Upstream.ID
	}
	task, ex, e := c.send(ctx, res, a, msg, req.Stream, Step8Delegate, false)
	if e != nil {
		if e.Code != "" && res.RemoteCode == "" {
			res.RemoteCode = e.Code // a binding error that carried a condition
			res.Err = e
			res.step(Step8Delegate, false, ex, "%s", e.Error())
			return res, e
		}
		return c.stop(res, e)
	}
	res.step(Step8Delegate, true, ex, "delegated %s %s %s", req.SkillID, version, digest)
	key := c.track(res, a, req, task)

	// step 9
	if req.Poll && a2a.IsTerminal(task.Status.State) {
		t, gex, err := c.getTask(ctx, a.endpoint, a.binding, task.ID)
		res.addExchange(gex)
		if err == nil && t != nil {
			task = t
			c.track(res, a, req, task)
		}
	}
	res.RemoteState = task.Status.State
	if task.Status.State != a2a.StateCompleted {
		code, m := errorCondition(task)
		if code == "" {
			m = "the task ended in " + task.Status.State + " without a condition code"
		}
		return remote(res, Step9Receive, code, m, ex)
	}
	res.step(Step9Receive, true, ex, "task %s completed at %s", key.ID, key.Endpoint)

	// step 10
	out, recs, e := c.checkOutput(task, req.SkillID, v)
	if e != nil {
		if c.on(sabotage.SIClientOutputFailureAsInterfaceInvalid) {
			e.Code = InterfaceInvalid
		}
		if c.on(sabotage.SIClientOutputInvalidAsRemoteState) {
			var cex *a2a.Exchange
			if a.binding == a2a.BindingHTTPJSON {
				cex, _ = c.A2A.REST(ctx, http.MethodPost, a.endpoint, "/tasks/"+url.PathEscape(task.ID)+":cancel", nil, c.call("CancelTask"))
			} else {
				_, _, cex, _ = c.A2A.CancelTask(ctx, a.endpoint, task.ID, "", c.call("CancelTask"))
			}
			res.addExchange(cex)
			res.RemoteState = a2a.StateFailed
		}
		if c.on(sabotage.SIClientUseInvalidOutput) {
			res.Output, res.Records = out, recs
		}
		return c.stop(res, e)
	}
	res.step(Step10Validate, true, nil, "output and %d records validate", len(recs))
	// step 11
	res.Output, res.Records, res.SchemaGoverned = out, recs, true
	res.step(Step11Deliver, true, nil, "output delivered")
	return res, nil
}

func bumpMinor(v string) string {
	maj, min, ok := strings.Cut(v, ".")
	if !ok {
		return v + ".1"
	}
	n := 0
	fmt.Sscanf(min, "%d", &n)
	return fmt.Sprintf("%s.%d", maj, n+1)
}

// checkOutput finds the primary result artifact and the supporting records and validates them.
func (c *Client) checkOutput(task *a2a.Task, skill string, v *Verified) (json.RawMessage, []Record, *Error) {
	var (
		out     json.RawMessage
		recs    []Record
		primary int
	)
	for i, art := range task.Artifacts {
		if art.Name == skill {
			primary++
			if len(art.Parts) != 1 || len(art.Parts[0].Data) == 0 {
				return nil, nil, errf(OutputInvalid, Step10Validate, fmt.Sprintf("/artifacts/%d/parts", i), "the primary result artifact must hold exactly one Data Part")
			}
			var o struct {
				Skill  string          `json:"skill"`
				Result json.RawMessage `json:"result"`
			}
			if err := json.Unmarshal(art.Parts[0].Data, &o); err != nil || o.Skill != skill || len(o.Result) == 0 {
				return nil, nil, errf(OutputInvalid, Step10Validate, fmt.Sprintf("/artifacts/%d/parts/0/data", i), "the primary result data is not the skill result object {skill, result}")
			}
			out = o.Result
			continue
		}
		if _, declared := v.Records[art.Name]; !declared {
			continue // neither the primary result nor a declared record: not this mapping's concern
		}
		if len(art.Parts) != 1 || len(art.Parts[0].Data) == 0 {
			return nil, nil, errf(OutputInvalid, Step10Validate, fmt.Sprintf("/artifacts/%d/parts", i), "supporting record %q must be one Data Part", art.Name)
		}
		recs = append(recs, Record{Kind: art.Name, ArtifactID: art.ArtifactID, Value: art.Parts[0].Data})
	}
	if primary != 1 {
		return nil, nil, errf(OutputInvalid, Step10Validate, "/artifacts", "the completed task has %d primary result artifacts named %q, the mapping requires one", primary, skill)
	}
	if c.on(sabotage.SIClientSkipOutputValidation) {
		return out, recs, nil
	}
	if vs := v.Output.ValidateJSON(out); len(vs) > 0 {
		return out, recs, &Error{Code: OutputInvalid, Step: Step10Validate, Path: vs[0].InstancePath, Details: c.details(vs),
			Msg: "the output does not validate against output_schema " + v.Doc.OutputSchema.SchemaURI + ": " + vs[0].Message}
	}
	for _, r := range recs {
		if vs := v.Records[r.Kind].ValidateJSON(r.Value); len(vs) > 0 {
			return out, recs, &Error{Code: OutputInvalid, Step: Step10Validate, Path: vs[0].InstancePath, Details: c.details(vs),
				Msg: fmt.Sprintf("supporting record %s (%s) does not validate: %s", r.ArtifactID, r.Kind, vs[0].Message)}
		}
	}
	return out, recs, nil
}

// ---- task registry and delegation hops

func (c *Client) key(endpoint, id string) TaskKey {
	if c.on(sabotage.SIClientGlobalTaskIDKeying) {
		return TaskKey{ID: id}
	}
	return TaskKey{Endpoint: endpoint, ID: id}
}

func (c *Client) track(res *Result, a *advertised, req Request, task *a2a.Task) TaskKey {
	k := c.key(a.endpoint, task.ID)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tasks == nil {
		c.tasks = map[TaskKey]*TaskRecord{}
	}
	c.tasks[k] = &TaskRecord{Key: TaskKey{Endpoint: a.endpoint, ID: task.ID}, Binding: a.binding, SkillID: req.SkillID, State: task.Status.State, Task: task, Updated: time.Now().UTC()}
	res.Task = &TaskKey{Endpoint: a.endpoint, ID: task.ID}
	return TaskKey{Endpoint: a.endpoint, ID: task.ID}
}

// Tasks returns the tasks the client tracks.
func (c *Client) Tasks() []TaskRecord {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]TaskRecord, 0, len(c.tasks))
	for _, t := range c.tasks {
		out = append(out, *t)
	}
	return out
}

// Refresh retrieves a tracked task with GetTask at the endpoint that issued it.
func (c *Client) Refresh(ctx context.Context, k TaskKey) (*a2a.Task, *a2a.Exchange, error) {
	c.mu.Lock()
	rec := c.tasks[c.key(k.Endpoint, k.ID)]
	c.mu.Unlock()
	if rec == nil {
		return nil, nil, fmt.Errorf("task %s at %s is not tracked", k.ID, k.Endpoint)
	}
	return c.getTask(ctx, rec.Key.Endpoint, rec.Binding, rec.Key.ID)
}

// getTask is GetTask on the binding the task was created through.
func (c *Client) getTask(ctx context.Context, endpoint, binding, id string) (*a2a.Task, *a2a.Exchange, error) {
	if binding == a2a.BindingHTTPJSON {
		ex, err := c.A2A.REST(ctx, http.MethodGet, endpoint, "/tasks/"+url.PathEscape(id), nil, c.call("GetTask"))
		if err != nil {
			return nil, ex, err
		}
		if ex.Status != http.StatusOK {
			return nil, ex, restError(ex.ResponseBody, ex.Status)
		}
		var t a2a.Task
		if err := a2a.DecodeStrict(ex.ResponseBody, &t); err != nil {
			return nil, ex, err
		}
		return &t, ex, nil
	}
	t, resp, ex, err := c.A2A.GetTask(ctx, endpoint, id, "", c.call("GetTask"))
	if err == nil && resp != nil && resp.Error != nil {
		err = resp.Error
	}
	return t, ex, err
}

// Hop is one side of a delegation hop.
type Hop struct {
	Agent    string `json:"agent"`    // card URL
	Endpoint string `json:"endpoint"` // interface URL that issued the task id
	TaskID   string `json:"task_id"`
	SkillID  string `json:"skill_id"`
	Version  string `json:"skill_version"`
	Digest   string `json:"interface_digest"`
	State    string `json:"state"`
}

// Correlation records one delegation hop in separately named fields; protocol task ids are never composed.
type Correlation struct {
	Upstream   Hop       `json:"upstream"`
	Downstream Hop       `json:"downstream"`
	Recorded   time.Time `json:"recorded"`
}

// Correlations returns the recorded delegation hops.
func (c *Client) Correlations() []Correlation {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Correlation(nil), c.hops...)
}

func hopOf(r *Result) Hop {
	h := Hop{Agent: r.Target, Endpoint: r.Endpoint, SkillID: r.SkillID, Version: r.SkillVersion, Digest: r.InterfaceDigest, State: r.RemoteState}
	if r.Task != nil {
		h.TaskID = r.Task.ID
	}
	return h
}

// Composition is the outcome of a two-skill composition.
type Composition struct {
	Up, Down    *Result
	Direct      bool // the references matched and the downstream task was created
	Correlation *Correlation
	Err         *Error
	Steps       []Step
}

// Compose runs the upstream skill, then — only when the upstream output Schema Reference and the downstream
// input Schema Reference agree on schema_uri, version, dialect and digest, and the transferred output validates
// against the downstream input schema — delegates that output to the downstream skill as a new task, and records
// the hop. The transferred payload is the complete upstream output.
//
// transfer, when set, derives the transferred payload from the upstream output (an orchestrator adding its own
// fields, say); the result is validated against the downstream input schema like any transferred instance.
func (c *Client) Compose(ctx context.Context, up, down Request, transfer func(json.RawMessage) json.RawMessage) (*Composition, error) {
	comp := &Composition{}
	upRes, err := c.Invoke(ctx, up)
	comp.Up = upRes
	if err != nil {
		comp.Err = asError(err, "", "compose: upstream")
		return comp, comp.Err
	}
	downIface, dres, err := c.Describe(ctx, down.CardURL, down.SkillID)
	if err != nil {
		comp.Down = dres
		comp.Err = asError(err, "", "compose: downstream describe_skill")
		return comp, comp.Err
	}
	payload := upRes.Output
	if transfer != nil {
		payload = transfer(payload)
	}
	upRef, downRef := upRes.Interface.Verified.Doc.OutputSchema, downIface.Verified.Doc.InputSchema
	mismatch := c.compareRefs(upRef, downRef)
	validates := len(downIface.Verified.Input.ValidateJSON(payload)) == 0
	if mismatch != "" && !(c.on(sabotage.SIComposeOnValidationSuccess) && validates) {
		comp.Err = errf("", StepCompose, "", "no direct composition: %s (upstream output %s %s, downstream input %s %s)", mismatch, upRef.SchemaURI, upRef.Version, downRef.SchemaURI, downRef.Version)
		comp.Steps = append(comp.Steps, Step{Name: StepCompose, Detail: comp.Err.Error()})
		return comp, comp.Err
	}
	comp.Steps = append(comp.Steps, Step{Name: StepCompose, OK: true, Detail: "schema_uri, version, dialect and digest match"})
	if c.on(sabotage.SIComposeSkipDownstreamValidation) {
		down.trusted = true // the broken orchestrator trusts the upstream output it already validated
		if e := c.checkHandler(downRef, payload, "compose: domain handler", "the transferred upstream output"); e != nil {
			comp.Err = e
			return comp, e
		}
	} else {
		if e := c.checkInstance(downRef, downIface.Verified.Input, payload, InputInvalid, "compose: validate the transferred instance", "the transferred upstream output"); e != nil {
			comp.Err = e
			comp.Steps = append(comp.Steps, Step{Name: e.Step, Detail: e.Error()})
			return comp, e
		}
	}
	down.Arguments = payload
	down.Upstream = upRes.Task
	downRes, err := c.Invoke(ctx, down)
	comp.Down, comp.Direct = downRes, downRes.Task != nil
	if downRes.Task != nil {
		c.correlate(upRes, downRes)
	}
	if comp.Direct {
		comp.Correlation = &c.Correlations()[len(c.Correlations())-1]
	}
	if err != nil {
		comp.Err = asError(err, "", "compose: downstream")
		return comp, comp.Err
	}
	return comp, nil
}

func (c *Client) compareRefs(a, b SchemaReference) string {
	var diffs []string
	if a.SchemaURI != b.SchemaURI && !c.on(sabotage.SIComposeIgnoreSchemaURI) {
		diffs = append(diffs, "schema_uri differs")
	}
	if a.Version != b.Version && !c.on(sabotage.SIComposeIgnoreVersion) {
		diffs = append(diffs, "version differs")
	}
	if a.Dialect != b.Dialect && !c.on(sabotage.SIComposeIgnoreDialect) {
		diffs = append(diffs, "dialect differs")
	}
	if a.Digest != b.Digest && !c.on(sabotage.SIComposeIgnoreDigest) {
		diffs = append(diffs, "digest differs")
	}
	return strings.Join(diffs, ", ")
}

func (c *Client) correlate(up, down *Result) {
	rec := Correlation{Upstream: hopOf(up), Downstream: hopOf(down), Recorded: time.Now().UTC()}
	if c.on(sabotage.SIClientOverloadTaskID) {
		rec.Downstream.TaskID = rec.Upstream.TaskID + "/" + rec.Downstream.TaskID
		rec.Upstream = Hop{}
	}
	if c.on(sabotage.SIClientDropUpstreamTaskID) {
		rec.Upstream.TaskID = ""
	}
	c.mu.Lock()
	c.hops = append(c.hops, rec)
	c.mu.Unlock()
}

// ---- agents that do not conform

// InvokeBase invokes a skill of an agent through base A2A only (text parts, no extension, no request object):
// what a caller may do with an agent that does not provide the schema-interface procedure. The result is never
// schema-governed and carries no schema.
func (c *Client) InvokeBase(ctx context.Context, cardURL, skillID, text string) (*Result, error) {
	res := &Result{Target: cardURL, SkillID: skillID}
	a, e := c.readCard(ctx, res, cardURL)
	if e != nil {
		return c.stop(res, e)
	}
	sk, ok := a.card.Skill(skillID)
	if !ok {
		return c.stop(res, errf(SkillNotAdvertised, Step2Select, "", "skill %q is not in the card", skillID))
	}
	if c.on(sabotage.SIClientInferSchemaFromMediaType) {
		for _, m := range sk.InputModes {
			if m == "application/json" {
				res.InferredSchema = json.RawMessage(`{"type":"object"}`)
			}
		}
	}
	m := a2a.Message{MessageID: "extconf-" + newID(), Role: a2a.RoleUser, Parts: []a2a.Part{a2a.TextPart(text)}}
	task, ex, e := c.sendBase(ctx, res, a, m)
	if e != nil {
		return c.stop(res, e)
	}
	res.step("base A2A invocation", true, ex, "not schema-governed: the agent does not provide the schema-interface procedure")
	if task != nil {
		c.track(res, a, Request{SkillID: skillID}, task)
		res.RemoteState = task.Status.State
	}
	res.SchemaGoverned = c.on(sabotage.SIClientClaimConformanceNonconforming)
	return res, nil
}

func (c *Client) sendBase(ctx context.Context, res *Result, a *advertised, m a2a.Message) (*a2a.Task, *a2a.Exchange, *Error) {
	call := a2a.Call{Note: "base A2A invocation"}
	var task *a2a.Task
	var ex *a2a.Exchange
	var err error
	if a.binding == a2a.BindingHTTPJSON {
		var msg *a2a.Message
		var rerr *a2a.RPCError
		task, msg, ex, rerr, err = c.restSend(ctx, a, a2a.SendMessageRequest{Message: m}, call)
		_ = msg
		if rerr != nil && err == nil {
			err = rerr
		}
	} else {
		var sr *a2a.SendResult
		var resp *a2a.RPCResponse
		sr, resp, ex, err = c.A2A.SendMessage(ctx, a.endpoint, a2a.SendMessageRequest{Message: m}, call)
		if err == nil && resp.Error != nil {
			err = resp.Error
		}
		if sr != nil {
			task = sr.Task
		}
	}
	res.addExchange(ex)
	if err != nil {
		return nil, ex, &Error{Step: "base A2A invocation", Msg: "sending the message", Err: err}
	}
	return task, ex, nil
}
