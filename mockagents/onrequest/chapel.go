package onrequest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/mockagents/crosscut"
	"github.com/extconf/extconf/sabotage"
)

// URI is the extension's URI.
const URI = "https://agent-capability.org/ext/on-request/v1"

// Skill kinds.
const (
	kindPublic = "public"
	kindInfo   = "info"
	kindAction = "action"
	kindSignIn = "sign-in"
	kindStaff  = "staff"
)

// skill is one skill of an agent and, when listed, its params.skills entry.
type skill struct {
	ID, Name, Description string
	Tags, Examples        []string
	Kind                  string
	Listed                bool
	PersonEntry           string // a path on the agent's origin ("/talk") or a tel: URI
	AssistantAccess       bool
	Completion            string
	Topic                 string // referral wording: "gives <Topic> to the person who asks"
	Verb                  string // action referral wording: "I can't <Verb> for you"
	Value                 string // what the operator gives on request (informational skills)
	Answer                string // public and staff skills: the answer
}

// Operator facts the statement publishes.
const (
	chapelPhone     = "tel:+1-202-555-0143"
	foreignPhone    = "tel:+1-202-555-0199"
	staffMember     = "Sam Director"
	perAssistantMax = 2
	totalMax        = 3
	pricingValue    = "GBP 1,950"
	benchValue      = "GBP 2,400"
	repatriateValue = "GBP 3,800"
)

func chapelSkills() []skill {
	return []skill{
		{ID: "opening-hours", Name: "Opening hours and location", Kind: kindPublic,
			Description: "States the chapel's opening hours and where to find it.", Tags: []string{"hours", "location"},
			Examples: []string{"When is Example Memorial Chapel open?"},
			Answer:   "Example Memorial Chapel is open Monday to Saturday, 09:00 to 17:00, at 1 Example Street."},
		{ID: "service-pricing", Name: "Service costs", Kind: kindInfo, Listed: true, PersonEntry: "/talk",
			Description: "Costs and inclusions of the chapel's services. Given to the person who asks, on request.",
			Tags:        []string{"pricing", "services"}, Examples: []string{"What does a cremation cost at Example Memorial Chapel?"},
			Topic: "its prices", Value: "A direct cremation is " + pricingValue + ", including transfer and the certificate fee."},
		{ID: "memorial-options", Name: "Memorial options", Kind: kindInfo, Listed: true, PersonEntry: "/talk", AssistantAccess: true,
			Description: "Costs of memorial benches and plaques. Opened to assistants acting for a person.",
			Tags:        []string{"pricing", "memorials"}, Examples: []string{"What does a memorial bench cost at Example Memorial Chapel?"},
			Topic: "the costs of memorials", Value: "An oak memorial bench is " + benchValue + " for ten years, including the plaque."},
		{ID: "repatriation-quote", Name: "Repatriation quote", Kind: kindInfo, Listed: true, PersonEntry: chapelPhone,
			Description: "What it costs to bring someone home from abroad. Given by telephone to the person who asks.",
			Tags:        []string{"pricing", "repatriation"}, Examples: []string{"What does bringing someone home from abroad cost?"},
			Topic: "repatriation quotes", Value: "Bringing someone home from abroad starts at " + repatriateValue + "."},
		{ID: "arrangement-booking", Name: "Book an arrangement meeting", Kind: kindAction, Listed: true, PersonEntry: "/talk",
			AssistantAccess: true, Completion: "in-conversation",
			Description: "Checks director availability and books an arrangement meeting during the conversation.",
			Tags:        []string{"booking", "arrangements"}, Examples: []string{"Book an arrangement meeting for Tuesday at 10:00."},
			Verb: "book this meeting"},
		{ID: "callback-request", Name: "Request a callback", Kind: kindAction, Listed: true, PersonEntry: "/talk",
			AssistantAccess: true, Completion: "deferred",
			Description: "Records a request for a funeral director to call back; a member of staff makes the call later.",
			Tags:        []string{"callback", "staff"}, Examples: []string{"Ask a funeral director to call me back."},
			Verb: "arrange this callback"},
		{ID: "notice-publication", Name: "Publish a notice", Kind: kindAction, Listed: true, PersonEntry: "/talk",
			AssistantAccess: true, Completion: "deferred",
			Description: "Publishes a notice on the chapel's notices page once the person has confirmed its text themselves.",
			Tags:        []string{"notices"}, Examples: []string{"Publish a notice on the chapel's notices page."},
			Verb: "publish this notice"},
		{ID: "record-amendment", Name: "Amend a service record", Kind: kindAction, Listed: true, PersonEntry: "/talk",
			Completion:  "in-conversation",
			Description: "Corrects details in a service booklet or record.",
			Tags:        []string{"records"}, Examples: []string{"Correct the spelling of a name in the service booklet."},
			Verb: "change this record"},
		{ID: "transfer-status", Name: "Transfer status", Kind: kindSignIn,
			Description: "Confirms whether a person has been brought into the chapel's care. Requires the family member to sign in.",
			Tags:        []string{"status"}, Examples: []string{"Has my father been brought into your care?"}},
		{ID: "speak-to-staff", Name: "Speak to a member of staff", Kind: kindStaff,
			Description: "Transfer to a funeral director, or a callback, Monday to Friday 09:00 to 17:00, in English. Outside those hours a callback is arranged for the next working day.",
			Tags:        []string{"escalation", "human"}, Examples: []string{"Can I speak to a member of staff?"},
			Answer: "I can transfer you to a funeral director now, or arrange a callback, Monday to Friday 09:00 to 17:00, in English."},
	}
}

func kioskSkills() []skill {
	return []skill{
		{ID: "opening-hours", Name: "Opening hours", Kind: kindPublic,
			Description: "States when the crematorium's chapel is open.", Tags: []string{"hours"},
			Examples: []string{"When is Example Crematorium open?"},
			Answer:   "Example Crematorium is open every day, 08:00 to 18:00."},
		{ID: "arrangement-booking", Name: "Book an arrangement meeting", Kind: kindAction, Listed: true, PersonEntry: "/talk",
			AssistantAccess: true, Completion: "in-conversation",
			Description: "Books an arrangement meeting during the conversation.",
			Tags:        []string{"booking"}, Examples: []string{"Book an arrangement meeting for Tuesday at 10:00."},
			Verb: "book this meeting"},
	}
}

// Options of the reference chapel: each makes a choice the document permits (a latitude), so that a run with it on
// shows the suite passes every reasonable reading. StartWith understands them; an unknown one is an error.
const (
	// OptLevel1 (OR-5.6 "MAY … only if", Annex A.3): the chapel's operator holds a level-1 attestation, so every
	// action is referred; the statement says attestationLevel 1.
	OptLevel1 = "level1-refers-actions"
	// OptActingForMessage (OR-5.5, §9 item 1): the chapel reads the acting-for assertion from Message.metadata[URI]
	// (A2A's per-message extension data) and its target configuration leaves actingFor to the harness's default.
	OptActingForMessage = "acting-for-message-metadata"
	// OptAddressCopy (OR-5.3 "give the personEntry address"): referral texts give the address as
	// "HTTPS://<host>/talk/": the same address after RFC 3986 §6 normalisation, not byte-identical.
	OptAddressCopy = "person-entry-normalised-copy"
	// OptNationalPhone (OR-5.3): referral texts give a tel: personEntry in national format, "(202) 555-0143".
	OptNationalPhone = "national-phone"
	// OptPassiveWording (OR-5.3, OR-6.2, OR-5.8 say what, not in which words): "prices are given to the person who
	// asks", "I'm not able to book this", "scheduled for staff to action".
	OptPassiveWording = "passive-wording"
	// OptActionReferralMessage (§6.2 "Task state, if the agent made a task"): action referrals are a Message, no task.
	OptActionReferralMessage = "action-referral-message"
	// OptNoStaff (OR-5.10 "Where a person can be reached, … SHOULD"): nobody can be reached at the chapel; it has no
	// escalation skill, says so when asked, and its statement says staffReachable false.
	OptNoStaff = "no-staff"
	// OptNoCompletion (OR-3.6 "MAY have completion"): action entries carry no completion; the operator statement
	// names them in actionSkills.
	OptNoCompletion = "no-completion"
	// OptLimitsPerSkill (OR-5.6(c) "repeated or duplicate requests are limited"): the limits count every request
	// for a skill in the window, whoever it is for, so earlier requests (the harness's other rows) use them up.
	OptLimitsPerSkill = "limits-per-skill"
	// OptOtherWordings (OR-5.3, §9 item 3, OR-5.10, OR-3.6, OR-5.8, OR-6.2 say what, not in which words): referrals
	// give a reason and "I don't have that information, but …"; the kiosk says it cannot transfer or call back;
	// bookings name "tomorrow at 10:00"; opted-in prices are written £2,400; a deferred callback ends COMPLETED
	// saying it is not yet done.
	OptOtherWordings = "other-wordings"
	// OptCallbackTel (OR-3.4 "or a tel: number"): callback-request's personEntry is the chapel's telephone number;
	// the statement's personActions leaves it out (a staff callback is not one the person carries out).
	OptCallbackTel = "callback-tel"
)

// Options lists every option StartWith understands.
func Options() []string {
	return []string{OptLevel1, OptActingForMessage, OptAddressCopy, OptNationalPhone, OptPassiveWording, OptActionReferralMessage, OptNoStaff, OptNoCompletion, OptLimitsPerSkill, OptOtherWordings, OptCallbackTel}
}

// agent is one running reference agent.
type agent struct {
	set      sabotage.Set
	operator string
	level    int  // attestation level of the operator under the Agent Capability trust framework
	staffed  bool // a person can be reached
	kiosk    bool
	skills   []skill
	foreign  string // an origin the operator does not control (for or.person-entry-foreign-origin)
	base     string
	srv      *a2atest.Server
	ops      *operatorLog
	opt      map[string]bool
	mu       sync.Mutex
}

// Start starts the chapel, the kiosk and an unrelated origin, and returns the roles, the operator's target
// configuration (the acting-for convention, two calling assistants) and how to stop them.
// The on-request latitudes in set (sabotage.ORLat*) switch on the matching options.
func Start(set sabotage.Set) (roles map[string]string, cfg target.Config, closeFn func(), err error) {
	on := map[string]bool{}
	for _, o := range OptionsOf(set) {
		on[o] = true
	}
	return start(set, on)
}

// latitudeOptions maps each registered on-request latitude to its option (Options).
var latitudeOptions = map[sabotage.ID]string{
	sabotage.ORLatLevel1RefersActions:   OptLevel1,
	sabotage.ORLatActingForMessage:      OptActingForMessage,
	sabotage.ORLatPersonEntryNormalised: OptAddressCopy,
	sabotage.ORLatNationalPhone:         OptNationalPhone,
	sabotage.ORLatPassiveWording:        OptPassiveWording,
	sabotage.ORLatActionReferralMessage: OptActionReferralMessage,
	sabotage.ORLatNoStaff:               OptNoStaff,
	sabotage.ORLatNoCompletion:          OptNoCompletion,
	sabotage.ORLatLimitsPerSkill:        OptLimitsPerSkill,
	sabotage.ORLatOtherWordings:         OptOtherWordings,
	sabotage.ORLatCallbackTel:           OptCallbackTel,
}

// OptionsOf returns the options the on-request latitudes switched on in set select.
func OptionsOf(set sabotage.Set) []string {
	return set.OptionNames(latitudeOptions)
}

// StartWith returns the starter of the chapel with the named options on (Options); it panics on an unknown name, so
// a misspelt latitude never runs the plain chapel.
func StartWith(opts ...string) func(sabotage.Set) (map[string]string, target.Config, func(), error) {
	on := map[string]bool{}
	for _, o := range opts {
		if !slices.Contains(Options(), o) {
			panic("onrequest mock: unknown option " + o)
		}
		on[o] = true
	}
	return func(set sabotage.Set) (map[string]string, target.Config, func(), error) { return start(set, on) }
}

func start(set sabotage.Set, opt map[string]bool) (roles map[string]string, cfg target.Config, closeFn func(), err error) {
	var closers []func()
	closeFn = func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}
	defer func() {
		if err != nil {
			closeFn()
		}
	}()
	// An origin nobody here operates: it serves a page at /talk, so only the control of the origin is wrong.
	unrelated, err := a2atest.Start(a2atest.Agent{Name: "unrelated site", Routes: map[string]http.HandlerFunc{
		"GET /talk": talkPage("Unrelated site"),
	}}, a2atest.Options{TLS: true})
	if err != nil {
		return nil, cfg, nil, err
	}
	closers = append(closers, unrelated.Close)

	kiosk := &agent{set: set, operator: "Example Crematorium", level: 1, staffed: false, kiosk: true,
		skills: kioskSkills(), foreign: unrelated.URL(), ops: newOperatorLog(), opt: opt}
	if err = kiosk.start(); err != nil {
		return nil, cfg, nil, err
	}
	closers = append(closers, kiosk.srv.Close)

	chapel := &agent{set: set, operator: "Example Memorial Chapel", level: 2, staffed: true,
		skills: chapelSkills(), foreign: unrelated.URL(), ops: newOperatorLog(), opt: opt}
	if opt[OptLevel1] {
		chapel.level = 1
	}
	if opt[OptNoStaff] {
		chapel.staffed = false
		chapel.skills = slices.DeleteFunc(chapel.skills, func(s skill) bool { return s.Kind == kindStaff })
	}
	if err = chapel.start(); err != nil {
		return nil, cfg, nil, err
	}
	closers = append(closers, chapel.srv.Close)
	chapel.ops.statement = chapel.statement(kiosk)

	roles = map[string]string{
		"on-request":            chapel.srv.CardURL(),
		"on-request.unattested": kiosk.srv.CardURL(),
		"on-request.unstaffed":  kiosk.srv.CardURL(),
		"on-request.operator":   chapel.srv.URL() + statementPath,
	}
	if opt[OptNoStaff] {
		delete(roles, "on-request.unstaffed")
	}
	cfg = target.Config{
		// The chapel reads the assertion from SendMessage params.metadata[URI]; with OptActingForMessage it reads
		// Message.metadata[URI], which is the harness's default, so the configuration says nothing.
		ActingFor: &target.ActingFor{Metadata: json.RawMessage(`{"` + URI + `":{"actingFor":{"name":"<person>"}}}`)},
		Principals: map[string]target.Principal{
			"on-request.A": {Header: "Authorization", Value: "Bearer assistant-a", ID: "assistant-a"},
			"on-request.B": {Header: "Authorization", Value: "Bearer assistant-b", ID: "assistant-b"},
		},
	}
	if opt[OptActingForMessage] {
		cfg.ActingFor = &target.ActingFor{}
	}
	return roles, cfg, closeFn, nil
}

func (a *agent) start() error {
	routes := map[string]http.HandlerFunc{
		"GET /talk": func(w http.ResponseWriter, r *http.Request) {
			if a.set.On(sabotage.ORPersonEntryDead) {
				http.NotFound(w, r)
				return
			}
			talkPage("Ask "+a.operator)(w, r)
		},
		"GET /bereavement": talkPage("Ask " + a.operator),
	}
	if !a.kiosk {
		routes["GET "+statementPath] = a.serveStatement
		routes["GET "+actionsPath] = a.serveActions
		routes["POST "+reversePath] = a.serveReverse
		routes["GET /confirm/{token}"] = a.serveConfirmPage
		routes["POST /confirm/{token}"] = a.serveConfirm
	}
	srv, err := a2atest.Start(a2atest.Agent{
		Name: a.operator,
		Card: func(base string) any {
			a.mu.Lock()
			a.base = base
			a.mu.Unlock()
			return a.card(base)
		},
		OnSend: a.onSend,
		Routes: routes,
		// The authenticated card (calling assistants only) is the public card plus a skill for funeral directors;
		// OR-3.9 reads its skill text too.
		ExtendedCard: func(*a2atest.Ctx) (any, *a2a.RPCError) {
			a.mu.Lock()
			base := a.base
			a.mu.Unlock()
			return a.extendedCard(base), nil
		},
		APIKeys: map[string]a2atest.Principal{
			"assistant-a": {Name: "assistant-a"},
			"assistant-b": {Name: "assistant-b"},
		},
	}, crosscut.Options(a.set, "on-request", a2atest.Options{TLS: true}))
	if err != nil {
		return err
	}
	a.srv = srv
	return nil
}

func talkPage(title string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!doctype html><title>%s</title><h1>%s</h1><p>Write to us or call, and a member of staff answers.</p>\n", title, title)
	}
}

// personEntry is the address the card gives for s, toggles applied; replies give the same.
func (a *agent) personEntry(s skill) string {
	pe := s.PersonEntry
	switch {
	case s.ID == "callback-request" && a.opt[OptCallbackTel]:
		return chapelPhone
	case s.ID == "service-pricing" && a.set.On(sabotage.ORPersonEntryPlainHTTP):
		return "http://" + strings.TrimPrefix(a.base, "https://") + pe
	case s.ID == "service-pricing" && a.set.On(sabotage.ORPersonEntryForeignOrigin):
		return a.foreign + pe
	case s.ID == "service-pricing" && a.set.On(sabotage.ORPersonEntryQueryContext):
		return a.base + pe + "?topic=cremation"
	case s.ID == "service-pricing" && a.set.On(sabotage.ORPersonEntryCircumstancePath):
		return a.base + "/bereavement"
	case s.ID == "repatriation-quote" && a.set.On(sabotage.ORTelNotOperator):
		return foreignPhone
	case s.ID == "record-amendment" && a.set.On(sabotage.ORActionEntryTel):
		return chapelPhone
	}
	if strings.HasPrefix(pe, "/") {
		return a.base + pe
	}
	return pe
}

// card builds the agent's card as a generic value, so that toggles can bend its shape.
func (a *agent) card(base string) any {
	var entries []any
	var skills []any
	for _, s := range a.skills {
		sk := map[string]any{"id": s.ID, "name": s.Name, "description": s.Description, "tags": s.Tags, "examples": s.Examples}
		switch {
		case s.Kind == kindSignIn:
			sk["securityRequirements"] = []any{map[string]any{"schemes": map[string]any{"family-portal": map[string]any{"list": []string{"openid"}}}}}
		case s.ID == "service-pricing" && a.set.On(sabotage.OROnRequestSkillSecured):
			sk["securityRequirements"] = []any{map[string]any{"schemes": map[string]any{"family-portal": map[string]any{"list": []string{"openid"}}}}}
		}
		if s.ID == "service-pricing" && a.set.On(sabotage.ORSkillTextLeaksValue) {
			sk["description"] = s.Description + " Direct cremation from " + pricingValue + "."
		}
		if s.ID == "memorial-options" && a.set.On(sabotage.ORSkillTextLeaksOptInValue) {
			sk["examples"] = append(append([]string(nil), s.Examples...), "Is a bench still "+benchValue+"?")
		}
		skills = append(skills, sk)
		if !s.Listed {
			continue
		}
		e := map[string]any{"id": s.ID, "assistantAccess": s.AssistantAccess}
		if pe := a.personEntry(s); !(s.ID == "service-pricing" && a.set.On(sabotage.ORPersonEntryMissing)) {
			e["personEntry"] = pe
		}
		if c := s.Completion; c != "" && !a.opt[OptNoCompletion] {
			if s.ID == "callback-request" && a.set.On(sabotage.ORDeferredDeclaredInConversation) {
				c = "in-conversation"
			}
			e["completion"] = c
		}
		if s.ID == "service-pricing" {
			if a.set.On(sabotage.OREntryMissingID) {
				delete(e, "id")
				e["skillId"] = s.ID
			}
			if a.set.On(sabotage.OREntryIDDangling) {
				e["id"] = "service-prices"
			}
		}
		entries = append(entries, e)
		if s.ID == "service-pricing" && a.set.On(sabotage.ORSkillsEntryDuplicated) {
			entries = append(entries, e)
		}
	}
	var skillsParam any = entries
	if a.set.On(sabotage.ORParamsSkillsMap) {
		m := map[string]any{}
		for _, e := range entries {
			em := e.(map[string]any)
			id, _ := em["id"].(string)
			m[id] = em
		}
		skillsParam = m
	}
	uri := URI
	if a.set.On(sabotage.ORExtURITrailingSlash) {
		uri += "/"
	}
	ext := map[string]any{
		"uri":         uri,
		"description": "Skills whose information " + a.operator + " gives to the person who asks, and where a person asks.",
		"required":    a.set.On(sabotage.ORExtRequiredTrue),
		"params":      map[string]any{"skills": skillsParam},
	}
	desc := "Answers questions for " + a.operator + ". Gives public information to any caller. Information given on request is given to the person who asks, at the address stated."
	return map[string]any{
		"name":                a.operator + " assistant",
		"description":         desc,
		"supportedInterfaces": a2atest.Interfaces(base),
		"provider":            map[string]any{"organization": a.operator, "url": base},
		"version":             "1.0.0",
		"capabilities": map[string]any{
			"streaming":         true,
			"extendedAgentCard": !a.kiosk,
			"extensions":        []any{ext},
		},
		"securitySchemes": map[string]any{
			"family-portal": map[string]any{"openIdConnectSecurityScheme": map[string]any{
				"openIdConnectUrl": base + "/.well-known/openid-configuration"}},
			"assistant-token": map[string]any{"httpAuthSecurityScheme": map[string]any{
				"scheme": "Bearer", "description": "Optional: identifies the calling assistant, for the limits on repeated requests."}},
		},
		"defaultInputModes":  []string{"text/plain"},
		"defaultOutputModes": []string{"text/plain"},
		"skills":             skills,
	}
}

// extendedCard is the card served to authenticated callers: the public card and a trade skill.
func (a *agent) extendedCard(base string) any {
	card := a.card(base).(map[string]any)
	desc := "Arrangements for funeral directors who refer a family to the chapel."
	if a.set.On(sabotage.ORExtendedCardLeaksValue) {
		desc += " A direct cremation at the chapel is " + pricingValue + "."
	}
	card["skills"] = append(card["skills"].([]any), map[string]any{"id": "trade-referrals", "name": "Trade referrals",
		"description": desc, "tags": []string{"trade"}, "examples": []string{"Can we refer a family to the chapel?"}})
	return card
}

// statement is what the chapel's operator states for the harness (suites/onrequest/README.md, "operator
// statement"): served at /_operator/statement.json and named by the role on-request.operator.
func (a *agent) statement(kiosk *agent) []byte {
	st := map[string]any{
		"operatorOrigins":    []string{a.srv.URL(), kiosk.srv.URL()},
		"operatorPhones":     []string{"+12025550143"},
		"attestationLevel":   a.level,
		"staffReachable":     a.staffed,
		"consentToActions":   true,
		"values":             map[string][]string{"service-pricing": {pricingValue}, "memorial-options": {benchValue}, "repatriation-quote": {repatriateValue}},
		"actionLog":          a.srv.URL() + actionsPath,
		"reverse":            a.srv.URL() + reversePath,
		"limits":             map[string]int{"perAssistant": perAssistantMax, "total": totalMax, "windowSeconds": int(limitWindow.Seconds())},
		"irreversible":       map[string]string{"notice-publication": "publishing the notice"},
		"actionSkills":       a.actionSkills(),
		"personConfirmation": "post",
		"personActions":      a.personActions(),
	}
	b, _ := json.MarshalIndent(st, "", "  ")
	return b
}

// personActions lists the actions the person must carry out themselves (OR-3.4e): every action, less the staff
// callback when its entry is a telephone number.
func (a *agent) personActions() []string {
	out := []string{}
	for _, sk := range a.skills {
		if sk.Kind == kindAction && !(sk.ID == "callback-request" && a.opt[OptCallbackTel]) {
			out = append(out, sk.ID)
		}
	}
	return out
}

// actionSkills lists the action skills the card does not mark with completion (all of them with OptNoCompletion).
func (a *agent) actionSkills() []string {
	out := []string{}
	for _, s := range a.skills {
		if s.Kind == kindAction && a.opt[OptNoCompletion] {
			out = append(out, s.ID)
		}
	}
	return out
}

func (a *agent) skill(id string) (skill, bool) {
	for _, s := range a.skills {
		if s.ID == id {
			return s, true
		}
	}
	return skill{}, false
}

// route finds the skill a request asks for: the first whose example the text contains (A2A has no skill
// selector; callers ask in words). The kiosk also understands a request for staff, which it has no skill for.
func (a *agent) route(text string) (skill, bool) {
	lt := strings.ToLower(text)
	for _, s := range a.skills {
		for _, ex := range s.Examples {
			if strings.Contains(lt, strings.ToLower(ex)) {
				return s, true
			}
		}
	}
	if strings.Contains(lt, "member of staff") || strings.Contains(lt, "speak to someone") {
		return skill{ID: "__staff__", Kind: kindStaff}, true
	}
	return skill{}, false
}

func messageText(m a2a.Message) string {
	var out []string
	for _, p := range m.Parts {
		if p.Text != nil {
			out = append(out, *p.Text)
		}
	}
	return strings.Join(out, "\n")
}
