package schemaiface

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/refclients/skiface"
	"github.com/extconf/extconf/sabotage"
)

// Test-only bearer tokens of the two principals (never credentials of anything real).
const (
	tokenA  = "si-test-token-A-3c9e1f0b"
	tokenB  = "si-test-token-B-77d2a0c4"
	tenantA = "tenant-alpha"
	tenantB = "tenant-beta"
)

// Policy rule ids: local policy state a caller must never learn from an error.
const (
	ruleSkill     = "pol-skill-grant-12"
	ruleResource  = "pol-resource-owner-9"
	ruleOperation = "pol-operation-delete-4"
	ruleFreshness = "pol-freshness-cost-2"
	ruleApproval  = "pol-approve-delete-7"
	ruleRevoked   = "pol-grant-revoked-5"
)

// PolicyRules lists the rule ids (the profile's sensitive policy strings).
var PolicyRules = []string{ruleSkill, ruleResource, ruleOperation, ruleFreshness, ruleApproval, ruleRevoked}

type principal struct{ name, tenant string }

var principals = map[string]principal{tokenA: {"A", tenantA}, tokenB: {"B", tenantB}}

// before authenticates every A2A operation (the core's own API keys are not used, so the refusal can carry the
// authorization_failed condition the document asks for).
func (a *agent) before(c *a2atest.Ctx) *a2atest.Reply {
	p, ok := authenticate(c.R)
	if !ok {
		switch {
		case a.set.On(sabotage.SIAuthnSkipped):
			p = principal{"A", tenantA}
		case a.set.On(sabotage.SIAuthnSkippedOneSkill):
			p = principal{anonymous, ""} // invoke lets it through for measure_link_bandwidth only
		default:
			return a.unauthenticated(c)
		}
	}
	c.Principal = &a2atest.Principal{Name: p.name, Tenant: p.tenant}
	return nil
}

func authenticate(r *http.Request) (principal, bool) {
	h := r.Header.Get("Authorization")
	scheme, tok, found := strings.Cut(h, " ")
	if !found || !strings.EqualFold(scheme, "Bearer") {
		return principal{}, false
	}
	p, ok := principals[strings.TrimSpace(tok)]
	return p, ok
}

func (a *agent) unauthenticated(c *a2atest.Ctx) *a2atest.Reply {
	msg := "authentication required: present a bearer token of a known principal"
	if a.set.On(sabotage.SIPreTaskErrorAsMessage) {
		return &a2atest.Reply{Message: &a2a.Message{Role: a2a.RoleAgent, Parts: []a2a.Part{errorPart(a, skiface.AuthorizationFailed, msg, nil)}}}
	}
	c.RespHeader.Set("WWW-Authenticate", `Bearer realm="schema-interface"`)
	if a.opt.Plain401 {
		return &a2atest.Reply{RawBody: []byte("Unauthorized\n"), HTTPStatus: http.StatusUnauthorized}
	}
	infos := []a2atest.ErrorInfo{{Type: a2atest.ErrorInfoType, Reason: "UNAUTHENTICATED", Domain: a2atest.ErrorDomain}}
	code := skiface.AuthorizationFailed
	if a.set.On(sabotage.SIAuthnFailureNoCode) {
		code = skiface.InputInvalid // (toggle id kept) the refusal names another condition
	}
	if !a.set.On(sabotage.SIPreTaskErrorNoCode) {
		infos = append(infos, a2atest.ErrorInfo{Type: a2atest.ErrorInfoType, Reason: a.reason(code), Domain: URI})
	}
	return &a2atest.Reply{Err: &a2a.RPCError{Code: a2atest.CodeUnauthenticated, Message: msg, Data: mustJSON(infos)},
		HTTPStatus: http.StatusUnauthorized}
}

// principalOf returns the caller the core context carries (before always sets it).
func principalOf(c *a2atest.Ctx) principal {
	if c.Principal == nil {
		return principal{}
	}
	return principal{c.Principal.Name, c.Principal.Tenant}
}

// decision is one authorization outcome; rule names the local policy rule that denied it.
type decision struct {
	ok   bool
	rule string
	// resource the refusal concerns (its attributes must not leak to the caller)
	resource string
}

// skillGrant is the skill-level part of the decision: B holds no grant for the example skill and the recommend
// skill.
func skillGrant(p principal, id string) decision {
	if p.name == "B" && (id == skillEvaluate || id == skillPropose) {
		return decision{rule: ruleSkill}
	}
	return decision{ok: true}
}

// fineGrant covers resources, operation and constraints, once the arguments validated.
func (a *agent) fineGrant(p principal, id string, args map[string]any) decision {
	switch id {
	case skillManage:
		op, _ := args["operation"].(string)
		rid, _ := args["resource_id"].(string)
		if p.name == "B" && op != "read" && !a.set.On(sabotage.SIAuthzOperationUnchecked) {
			return decision{rule: ruleOperation, resource: rid}
		}
		if p.name == "B" && rid != "r-shared" && !a.set.On(sabotage.SIAuthzResourceUnchecked) {
			return decision{rule: ruleResource, resource: rid}
		}
		a.mu.Lock()
		revoked := a.revoked[p.name+"/"+op+"/"+rid]
		a.mu.Unlock()
		if revoked {
			return decision{rule: ruleRevoked, resource: rid}
		}
	case skillMeasure:
		if age, ok := number(args["max_age_seconds"]); ok && p.name == "B" && age < 60 && !a.set.On(sabotage.SIAuthzConstraintUnchecked) {
			return decision{rule: ruleFreshness}
		}
	}
	return decision{ok: true}
}

// authorize is the current decision for one request; sabotage may skip it or reuse an earlier one.
func (a *agent) authorize(p principal, sk *skill, args map[string]any, validBinding bool) decision {
	if a.set.On(sabotage.SIAuthzSkippedForObserveOnly) && sk.authority.DefaultMode == "observe_only" {
		return decision{ok: true}
	}
	if a.set.On(sabotage.SIAuthzBypassedByValidRequest) && validBinding && args != nil {
		return decision{ok: true}
	}
	key := p.name + "/" + sk.id
	if a.set.On(sabotage.SIAuthzDecisionCached) {
		a.mu.Lock()
		prev, seen := a.decisions[key]
		a.mu.Unlock()
		if seen {
			return decision{ok: prev, rule: ruleSkill}
		}
	}
	d := decision{ok: true}
	if !a.set.On(sabotage.SIAuthzSkillUnchecked) {
		d = skillGrant(p, sk.id)
	}
	if d.ok && args != nil {
		d = a.fineGrant(p, sk.id, args)
	}
	if a.set.On(sabotage.SIAuthzDecisionCached) && args != nil {
		a.mu.Lock()
		a.decisions[key] = d.ok
		a.mu.Unlock()
	}
	return d
}

// Control hooks: the operator-side levers a conforming deployment has (grant one approval, revoke a grant).
type controlBody struct {
	Principal  string `json:"principal"`
	ResourceID string `json:"resource_id"`
	Operation  string `json:"operation"`
}

func readControl(w http.ResponseWriter, r *http.Request) (controlBody, bool) {
	var b controlBody
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4096)).Decode(&b); err != nil || b.Principal == "" || b.ResourceID == "" {
		http.Error(w, `want {"principal","resource_id"[,"operation"]}`, http.StatusBadRequest)
		return b, false
	}
	return b, true
}

func (a *agent) controlApprove(w http.ResponseWriter, r *http.Request) {
	b, ok := readControl(w, r)
	if !ok {
		return
	}
	a.mu.Lock()
	a.approvals[b.Principal+"/"+b.ResourceID]++
	a.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

func (a *agent) controlRevoke(w http.ResponseWriter, r *http.Request) {
	b, ok := readControl(w, r)
	if !ok {
		return
	}
	if b.Operation == "" {
		b.Operation = "delete"
	}
	a.mu.Lock()
	a.revoked[b.Principal+"/"+b.Operation+"/"+b.ResourceID] = true
	a.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// approve consumes the single-use approval a delete needs under policy; ok is false when none is held.
func (a *agent) approve(p principal, rid string) bool {
	if a.set.On(sabotage.SIApprovalUnenforced) {
		return true
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.set.On(sabotage.SIApprovalRemembered) && a.approvedAny[p.name] {
		return true
	}
	k := p.name + "/" + rid
	if a.approvals[k] == 0 {
		return false
	}
	a.approvals[k]--
	a.approvedAny[p.name] = true
	return true
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case float64:
		return x, true
	}
	return 0, false
}

// anonymous is the caller without a credential under the si.authn-skipped-one-skill sabotage.
const anonymous = "anonymous"
