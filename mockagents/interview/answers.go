package interview

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/extconf/extconf/fixtures/sow"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/harness/jsonptr"
	"github.com/extconf/extconf/sabotage"
)

// methods are the five of §4 (without the "interview/" prefix).
var methods = []string{"identity", "capabilities", "usage", "terms", "refusals"}

// clauses are the standing proposal members interview/terms projects.
var clauses = []string{"scope", "inputs", "deliverables", "price", "volume", "change_control", "termination", "disputes", "confidentiality"}

type source struct {
	Document   string `json:"document"`
	URL        string `json:"url,omitempty"`
	Digest     string `json:"digest,omitempty"`
	Member     string `json:"member"`
	omitMember bool   // only iv.projection-member-absent sets it
}

func (s source) MarshalJSON() ([]byte, error) {
	type plain source
	if !s.omitMember {
		return json.Marshal(plain(s))
	}
	return json.Marshal(struct {
		Document string `json:"document"`
		URL      string `json:"url,omitempty"`
		Digest   string `json:"digest,omitempty"`
	}{s.Document, s.URL, s.Digest})
}

type projection struct {
	Source  source          `json:"source"`
	Value   json.RawMessage `json:"value"`
	Comment string          `json:"comment,omitempty"` // only iv.projection-comment sets it
}

type answer struct {
	Question    string       `json:"question"`
	Declared    *bool        `json:"declared,omitempty"`
	Projections []projection `json:"projections"`
	Note        string       `json:"note,omitempty"` // only iv.answer-commentary sets it
}

type refusal struct {
	Refused        bool     `json:"refused"`
	Reason         string   `json:"reason"`
	Detail         string   `json:"detail"`
	DeclaredSkills []string `json:"declared_skills"`
	DidYouMean     string   `json:"did_you_mean,omitempty"` // only iv.refusal-did-you-mean sets it
	Hint           string   `json:"hint,omitempty"`         // only iv.refusal-extra-member sets it
}

// answers is the lookup table: every answer assembled once from declared bytes.
type answers struct {
	skills       []string
	declared     bool // the card carries a terms entry
	identity     []projection
	capabilities []projection
	usage        []projection
	usageBy      map[string][]projection
	terms        []projection
	termsBy      map[string][]projection
	refusals     []projection
	description  projection      // the card's /description (only fabricating toggles use it)
	card         json.RawMessage // the whole card (only iv.projection-member-absent uses it)
	uncommitted  []projection
}

// cardV0 turns the served card into the remembered older one: version 0.9.0 and a third skill since retired.
func cardV0(card map[string]any) {
	card["version"] = "0.9.0"
	ss, _ := card["skills"].([]any)
	card["skills"] = append(ss, map[string]any{"id": "retired-skill", "name": "Retired skill",
		"description": "Prepared VAT returns (withdrawn).", "tags": []any{"vat"}})
}

// buildAnswers projects the card (as served, or as mutate rewrites it) and the proposals its terms entry commits to.
func buildAnswers(cardRaw []byte, base string, mutate func(map[string]any)) (*answers, error) {
	v, err := decode(cardRaw)
	if err != nil {
		return nil, fmt.Errorf("answers: card: %w", err)
	}
	card, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("answers: the card is not an object")
	}
	if mutate != nil {
		mutate(card)
	}
	a := &answers{usageBy: map[string][]projection{}, termsBy: map[string][]projection{}, card: append(json.RawMessage(nil), cardRaw...)}
	fromCard := func(member string) (projection, bool) {
		val, ok := resolve(card, member)
		if !ok {
			return projection{}, false
		}
		b, _ := json.Marshal(val)
		return projection{Source: source{Document: "card", Member: member}, Value: b}, true
	}
	add := func(list *[]projection, members ...string) {
		for _, m := range members {
			if p, ok := fromCard(m); ok {
				*list = append(*list, p)
			}
		}
	}
	add(&a.identity, "/name", "/provider", "/version", "/supportedInterfaces", "/signatures")
	add(&a.usage, "/supportedInterfaces", "/defaultInputModes", "/defaultOutputModes")
	ss, _ := card["skills"].([]any)
	for i, s := range ss {
		m, _ := s.(map[string]any)
		id, _ := m["id"].(string)
		a.skills = append(a.skills, id)
		p := fmt.Sprintf("/skills/%d", i)
		add(&a.capabilities, p+"/id", p+"/description")
		add(&a.usage, p+"/inputModes", p+"/outputModes")
		var one []projection
		add(&one, p+"/id", p+"/inputModes", p+"/outputModes")
		a.usageBy[id] = one
		add(&a.refusals, p+"/id")
	}
	add(&a.usage, "/securitySchemes")
	a.description, _ = fromCard("/description")

	for _, e := range termsEntries(card) {
		a.declared = true
		p, ok := sow.ByName(nameOf(e.URL))
		if !ok || p.Digest != e.Digest {
			continue // only documents the card commits to are ever projected
		}
		projs, refs, err := fromProposal(p, e.URL, e.Digest)
		if err != nil {
			return nil, err
		}
		a.terms = append(a.terms, projs...)
		a.termsBy[e.Offering] = append(a.termsBy[e.Offering], projs...)
		a.refusals = append(a.refusals, refs...) // grounds the proposal itself declares
	}
	if p, ok := sow.ByName(uncommitted); ok {
		a.uncommitted, _, _ = fromProposal(p, proposalURL(base, uncommitted), p.Digest)
	}
	return a, nil
}

func fromProposal(p sow.Proposal, url, digest string) (projs, refusals []projection, err error) {
	v, err := decode(p.Doc)
	if err != nil {
		return nil, nil, fmt.Errorf("answers: proposal %s: %w", p.Name, err)
	}
	for _, c := range clauses {
		if val, ok := resolve(v, "/"+c); ok {
			b, _ := json.Marshal(val)
			projs = append(projs, projection{Source: source{Document: "proposal", URL: url, Digest: digest, Member: "/" + c}, Value: b})
		}
	}
	if val, ok := resolve(v, "/scope/refusals"); ok {
		b, _ := json.Marshal(val)
		refusals = append(refusals, projection{Source: source{Document: "proposal", URL: url, Digest: digest, Member: "/scope/refusals"}, Value: b})
	}
	return projs, refusals, nil
}

type entry struct{ URL, Digest, Offering string }

func termsEntries(card map[string]any) []entry {
	caps, _ := card["capabilities"].(map[string]any)
	exts, _ := caps["extensions"].([]any)
	var out []entry
	for _, x := range exts {
		m, _ := x.(map[string]any)
		if m["uri"] != TermsURI {
			continue
		}
		params, _ := m["params"].(map[string]any)
		ps, _ := params["proposals"].([]any)
		for _, p := range ps {
			pm, _ := p.(map[string]any)
			u, _ := pm["url"].(string)
			d, _ := pm["digest"].(string)
			o, _ := pm["offering"].(string)
			out = append(out, entry{URL: u, Digest: d, Offering: o})
		}
	}
	return out
}

func nameOf(url string) string {
	i := strings.LastIndex(url, "/")
	return strings.TrimSuffix(url[i+1:], ".sow.json")
}

// method answers interview/<q> under activation; without it the method does not exist (§3 rule 2).
func (a *Agent) method(q string) func(*a2atest.Ctx, json.RawMessage) (any, *a2a.RPCError) {
	return func(c *a2atest.Ctx, raw json.RawMessage) (any, *a2a.RPCError) {
		if !c.IsActive(InterviewURI) && !a.set.On(sabotage.IVAnswersWithoutActivation) {
			if a.set.On(sabotage.IVEchoUnactivated) {
				c.RespHeader.Set(a2a.HeaderExtensions, InterviewURI) // lists a URI the request did not activate
			}
			return nil, a2atest.NewError(a2a.CodeMethodNotFound, "method not found: "+c.Method, nil)
		}
		if a.set.On(sabotage.IVNoExtensionsEcho) {
			c.RespHeader.Del(a2a.HeaderExtensions)
		}
		if q == "usage" && a.set.On(sabotage.IVUsageMethodMissing) {
			return nil, a2atest.NewError(a2a.CodeMethodNotFound, "method not found: "+c.Method, nil)
		}
		params, perr := readParams(raw)
		if perr != nil {
			return nil, perr
		}
		a.churn()
		a.sideEffects(c)
		a.mu.Lock()
		live, stale := a.cache, a.stale
		cache := live
		if q == "identity" {
			a.identityCalls++
		}
		calls := a.identityCalls
		a.mu.Unlock()
		if a.set.On(sabotage.IVAnswersFromStaleCard) {
			cache = stale
		}

		ans := answer{Question: q, Projections: []projection{}}
		sel, hasSel := params["skill"]
		var sk string
		if hasSel && (q == "usage" || q == "terms") {
			s, ok := sel.(string)
			if !ok {
				return nil, a2atest.NewError(a2a.CodeInvalidParams, "skill must be a string", nil)
			}
			id, ok := a.match(cache.skills, s)
			if !ok && a.set.On(sabotage.IVSelectorMissAnswered) {
				return ans, nil // an empty answer where §4 rule 3 requires the refusal
			}
			if !ok {
				return a.refusal(live, s), nil
			}
			sk = id
		}
		switch q {
		case "identity":
			ans.Projections = cache.identity
			if calls%2 == 0 && a.set.On(sabotage.IVNonIdempotent) {
				ans.Projections = without(ans.Projections, "/provider")
			}
		case "capabilities":
			ans.Projections = cache.capabilities
			if a.set.On(sabotage.IVValueSummarized) {
				ans.Projections = summarized(ans.Projections)
			}
			if a.set.On(sabotage.IVProjectionComment) {
				ans.Projections = commented(ans.Projections)
			}
		case "usage":
			ans.Projections = cache.usage
			if sk != "" {
				ans.Projections = cache.usageBy[sk]
				if a.set.On(sabotage.IVUsageSelectorFabricated) {
					i := slices.Index(cache.skills, sk)
					ans.Projections = append(append([]projection(nil), ans.Projections...), projection{
						Source: source{Document: "card", Member: fmt.Sprintf("/skills/%d/inputModes", i)}, Value: json.RawMessage(`["text/csv","application/pdf"]`)})
				}
			}
		case "terms":
			ans.Projections = cache.terms
			if sk != "" {
				ans.Projections = cache.termsBy[sk]
				if a.set.On(sabotage.IVTermsSelectorUncommitted) {
					ans.Projections = append(append([]projection(nil), ans.Projections...), cache.uncommitted...)
				}
			}
			declared := cache.declared
			if !declared && sk == "" && a.set.On(sabotage.IVNoTermsRefused) {
				return a.refusal(live, "terms"), nil // a refusal where §4 rule 4 requires the answer declared false
			}
			if !declared && a.set.On(sabotage.IVTermsFabricatedFromCard) {
				declared = true
				ans.Projections = []projection{cache.description}
			}
			if declared && a.set.On(sabotage.IVTermsFromUncommittedProposal) {
				ans.Projections = append(append([]projection(nil), ans.Projections...), cache.uncommitted...)
			}
			ans.Projections = proposalSources(ans.Projections, a.set.On(sabotage.IVProposalSourceOmitsDigest), a.set.On(sabotage.IVProposalSourceUppercaseDigest))
			ans.Declared = &declared
		case "refusals":
			ans.Projections = cache.refusals
			if a.set.On(sabotage.IVRefusalsUndeclaredGround) {
				ans.Projections = append(append([]projection(nil), ans.Projections...),
					projection{Source: source{Document: "card", Member: "/admissionPolicy"}, Value: json.RawMessage(`"no requests from competitors"`)})
			}
		}
		switch {
		case q == "terms" && sk == "" && a.set.On(sabotage.IVTermsProjectsIDOnly):
			ans.Projections = idOnly(ans.Projections)
		case q == "identity" && a.set.On(sabotage.IVProjectionMemberAbsent):
			ans.Projections = memberless(ans.Projections, "/name", cache.card)
		case q == "identity" && a.set.On(sabotage.IVIdentityOmitsVersion):
			ans.Projections = without(ans.Projections, "/version")
		case q == "capabilities" && a.set.On(sabotage.IVCapabilitiesOmitsSkill) && len(cache.skills) > 0:
			last := fmt.Sprintf("/skills/%d", len(cache.skills)-1)
			ans.Projections = without(without(ans.Projections, last+"/id"), last+"/description")
		case q == "usage" && sk == "" && a.set.On(sabotage.IVUsageOmitsInterfaces):
			ans.Projections = without(ans.Projections, "/supportedInterfaces")
		case q == "terms" && sk == "" && cache.declared && a.set.On(sabotage.IVTermsDeclaredFalse):
			f := false
			ans.Declared, ans.Projections = &f, []projection{}
		case q == "refusals" && a.set.On(sabotage.IVRefusalsOmitsSkill) && len(cache.skills) > 0:
			ans.Projections = without(ans.Projections, fmt.Sprintf("/skills/%d/id", len(cache.skills)-1))
		}
		if a.set.On(sabotage.IVAnswersEmpty) {
			ans.Projections = []projection{}
		}
		if a.set.On(sabotage.IVQuestionMislabelled) {
			ans.Question = "identity"
		}
		if qt, ok := params["question"].(string); ok && a.set.On(sabotage.IVFreeTextQuestionHonoured) {
			ans.Projections = mentioning(ans.Projections, qt)
		}
		if a.set.On(sabotage.IVAnswerCommentary) {
			ans.Note = "Happy to help!"
		}
		if ans.Projections == nil {
			ans.Projections = []projection{}
		}
		return ans, nil
	}
}

// before catches every other interview/ method: under activation the closure answers it with the standard
// refusal (§6 rule 1); without activation it falls through to the core's method-not-found.
func (a *Agent) before(c *a2atest.Ctx) *a2atest.Reply {
	if !strings.HasPrefix(c.Method, "interview/") || c.Binding != a2a.BindingJSONRPC || !c.IsActive(InterviewURI) {
		return nil
	}
	for _, m := range methods {
		if c.Method == "interview/"+m {
			return nil
		}
	}
	a.churn()
	a.sideEffects(c)
	a.mu.Lock()
	cache := a.cache
	a.mu.Unlock()
	switch {
	case c.Method == "interview/help" && a.set.On(sabotage.IVFriendlyHelpMethod):
		return &a2atest.Reply{Result: answer{Question: "help", Projections: []projection{cache.description}}}
	case a.set.On(sabotage.IVUndefinedMethodNotFound):
		return &a2atest.Reply{Err: a2atest.NewError(a2a.CodeMethodNotFound, "method not found: "+c.Method, nil)}
	}
	return &a2atest.Reply{Result: a.refusal(cache, c.Method)}
}

// refusal is the standard refusal of §6, assembled from the declared ids alone; input is what drew it.
func (a *Agent) refusal(cache *answers, input string) refusal {
	detail := "no declared skill matches"
	if a.opt.RefusalDetail != "" {
		detail = a.opt.RefusalDetail // the agent's own constant wording (a latitude: see the suite README)
	}
	r := refusal{Refused: true, Reason: "out_of_scope", Detail: detail, DeclaredSkills: cache.skills}
	if a.set.On(sabotage.IVRefusalWrongReason) {
		r.Reason = "unknown_method"
	}
	if a.set.On(sabotage.IVRefusalEchoesInput) {
		r.Detail += " " + input
	}
	if a.set.On(sabotage.IVRefusalSkillsFromMemory) {
		a.mu.Lock()
		r.DeclaredSkills = a.stale.skills
		a.mu.Unlock()
	}
	if a.set.On(sabotage.IVRefusalExtraMember) {
		r.Hint = "try interview/capabilities"
	}
	if a.set.On(sabotage.IVRefusalDidYouMean) {
		for _, id := range cache.skills {
			if d := distance(input, id); d > 0 && d <= 2 {
				r.DidYouMean = id
				break
			}
		}
	}
	return r
}

// match is the skill selector: byte for byte, never interpreted (§4 rule 3).
func (a *Agent) match(ids []string, sel string) (string, bool) {
	for _, id := range ids {
		if sel == id {
			return id, true
		}
	}
	if a.set.On(sabotage.IVSelectorCaseFolded) {
		for _, id := range ids {
			if strings.ToLower(strings.TrimSpace(sel)) == strings.ToLower(id) {
				return id, true
			}
		}
	}
	if a.set.On(sabotage.IVSelectorPrefixMatch) && sel != "" {
		for _, id := range ids {
			if strings.HasPrefix(id, sel) {
				return id, true
			}
		}
	}
	return "", false
}

func readParams(raw json.RawMessage) (map[string]any, *a2a.RPCError) {
	out := map[string]any{}
	if t := bytes.TrimSpace(raw); len(t) == 0 || string(t) == "null" {
		return out, nil
	}
	if json.Unmarshal(raw, &out) != nil {
		return nil, a2atest.NewError(a2a.CodeInvalidParams, "params must be an object", nil)
	}
	return out, nil
}

func without(ps []projection, member string) []projection {
	var out []projection
	for _, p := range ps {
		if p.Source.Member != member {
			out = append(out, p)
		}
	}
	return out
}

// idOnly projects each proposal the projections cite by its /id alone (the identifier, no clause).
func idOnly(ps []projection) []projection {
	var out []projection
	seen := map[string]bool{}
	for _, p := range ps {
		key := p.Source.URL + " " + p.Source.Digest
		if p.Source.Document != "proposal" || seen[key] {
			continue
		}
		seen[key] = true
		if doc, ok := sow.ByName(nameOf(p.Source.URL)); ok {
			id, _ := json.Marshal(doc.ID)
			out = append(out, projection{Source: source{Document: "proposal", URL: p.Source.URL, Digest: p.Source.Digest, Member: "/id"}, Value: id})
		}
	}
	return out
}

// memberless replaces the projection of member by one of the whole card with no source.member: a source that names
// no member (the sabotage the diff once read as "" and accepted).
func memberless(ps []projection, member string, card json.RawMessage) []projection {
	out := without(ps, member)
	return append(out, projection{Source: source{Document: "card", omitMember: true}, Value: card})
}

// summarized cuts /skills/0/description to its first sentence (the sabotage a model would do).
func summarized(ps []projection) []projection {
	out := append([]projection(nil), ps...)
	for i, p := range out {
		if p.Source.Member != "/skills/0/description" {
			continue
		}
		var s string
		if json.Unmarshal(p.Value, &s) == nil {
			if j := strings.Index(s, ". "); j > 0 {
				s = s[:j+1]
			}
			out[i].Value, _ = json.Marshal(s)
		}
	}
	return out
}

func commented(ps []projection) []projection {
	out := append([]projection(nil), ps...)
	for i := range out {
		out[i].Comment = "our most popular skill"
	}
	return out
}

func proposalSources(ps []projection, omitDigest, upper bool) []projection {
	if !omitDigest && !upper {
		return ps
	}
	out := append([]projection(nil), ps...)
	for i, p := range out {
		if p.Source.Document != "proposal" {
			continue
		}
		switch {
		case omitDigest:
			out[i].Source.Digest = ""
		case upper:
			out[i].Source.Digest = "sha256:" + strings.ToUpper(strings.TrimPrefix(p.Source.Digest, "sha256:"))
		}
	}
	return out
}

// mentioning keeps the projections whose value mentions a word of the question (the sabotage: free text read).
func mentioning(ps []projection, question string) []projection {
	var words []string
	for _, w := range strings.FieldsFunc(strings.ToLower(question), func(r rune) bool { return r < 'a' || r > 'z' }) {
		if len(w) >= 4 {
			words = append(words, w)
		}
	}
	out := []projection{}
	for _, p := range ps {
		v := strings.ToLower(string(p.Value))
		for _, w := range words {
			if strings.Contains(v, w) {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// distance is the Levenshtein distance (bytes), for the did-you-mean sabotage only.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

func decode(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

// resolve is an RFC 6901 lookup (the harness's own, so agent and client read a pointer alike).
func resolve(doc any, ptr string) (any, bool) {
	v, err := jsonptr.Resolve(doc, ptr)
	return v, err == nil
}
