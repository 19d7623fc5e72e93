package skiface

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/extconf/extconf/sabotage"
)

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
