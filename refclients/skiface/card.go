package skiface

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"strings"

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

// remote records a condition the agent reported.
func remote(res *Result, step, code, msg string, ex *a2a.Exchange) (*Result, error) {
	e := &Error{Code: code, Step: step, Msg: "the agent reported: " + msg}
	res.Err, res.RemoteCode = e, code
	res.step(step, false, ex, "%s", e.Error())
	return res, e
}

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
