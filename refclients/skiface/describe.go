package skiface

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/sabotage"
)

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
		skipDigest:        c.on(sabotage.SIClientSkipSchemaDigest),
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
