package interview

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/extconf/extconf/fixtures/sow"
	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/mockagents/crosscut"
	"github.com/extconf/extconf/sabotage"
)

// URIs of the two extensions the agent declares.
const (
	InterviewURI = "https://agentsow.com/extensions/a2a-interview/v1"
	TermsURI     = "https://agentsow.com/extensions/a2a-terms/v1"
)

// committed are the fixture proposals the main card lists; uncommitted is signed but listed nowhere (it is the
// directed one, served only by iv.terms-from-uncommitted-proposal).
var (
	committed   = []string{"reconcile-statement", "categorise-transactions"}
	uncommitted = "reconcile-statement-harbour"
)

// deferredDelay is how long the sabotaged work queue takes to turn an interview call into a task.
const deferredDelay = 30 * time.Millisecond

// Model stands in for the agent's model: ordinary traffic invokes it, the interview never does (IV-4.1b, IV-6.3b
// are unwitnessable on the wire; the package's own tests assert the counter stays at zero).
type Model struct{ calls atomic.Int64 }

// Invoke records one model invocation.
func (m *Model) Invoke() { m.calls.Add(1) }

// Calls is how often the model ran.
func (m *Model) Calls() int64 { return m.calls.Load() }

// Agent is one running reference agent.
type Agent struct {
	Role  string
	Model *Model
	srv   *a2atest.Server
	set   sabotage.Set
	opt   Options
	terms bool // declares the terms extension

	mu            sync.Mutex
	cache         *answers // built from the served card bytes
	stale         *answers // built from the remembered card-v0 (only the stale toggles read it)
	identityCalls int
	churnVersion  int // interview.churn: 1 until the first interview call, then 2
}

// Server is the agent's A2A server.
func (a *Agent) Server() *a2atest.Server { return a.srv }

// Options are the reference agents' latitudes: choices the interview document leaves to the agent. Each must
// leave every row passing.
type Options struct {
	// RefusalDetail, when set, is the agent's own constant wording of the standard refusal's detail (§6 shows
	// "no declared skill matches" in an example; the reading is in the suite README).
	RefusalDetail string
	// HTTPJSONFirst lists the HTTP+JSON interface before the JSON-RPC one in supportedInterfaces: the interview is
	// then served over the card's second binding (A2A: the first interface is only the preferred one).
	HTTPJSONFirst bool
	// RetiredKeySignature has each card also signed by a retired key no trusted JWK Set holds (besides the current
	// one): A2A §8.4.3, a verifier accepts a card when at least one signature verifies.
	RetiredKeySignature bool
	// ES512 signs each card with ES512 (a P-521 key, TEST ONLY, fresh per process, published at the jku) instead of
	// ES256: A2A §8.4 names no algorithm allow-list.
	ES512 bool
	// ResignPerFetch signs the card afresh on every fetch; the answers stay cached (§4 rule 2 SHOULD).
	ResignPerFetch bool
	// SkillInstructions adds a skill whose id contains the word "instructions" (any id is the agent's to choose).
	SkillInstructions bool
}

// OptionNames are the starter's named switches.
var OptionNames = map[string]func(*Options){
	"refusal-detail-worded": func(o *Options) { o.RefusalDetail = "outside the declared skills of this agent" },
	"http-json-first":       func(o *Options) { o.HTTPJSONFirst = true },
	"skill-id-instructions": func(o *Options) { o.SkillInstructions = true },
	"retired-key-signature": func(o *Options) { o.RetiredKeySignature = true },
	"es512-signature":       func(o *Options) { o.ES512 = true },
	"resign-per-fetch":      func(o *Options) { o.ResignPerFetch = true },
}

// ParseOptions reads named switches (OptionNames); an unknown name is an error.
func ParseOptions(names ...string) (Options, error) {
	var o Options
	for _, n := range names {
		f, ok := OptionNames[strings.TrimSpace(n)]
		if !ok {
			return o, fmt.Errorf("interview reference agents: unknown option %q", n)
		}
		f(&o)
	}
	return o, nil
}

// Start starts the three agents of the document with set on; the interview latitudes in set (sabotage.IVLat*)
// switch on the matching Options.
func Start(set sabotage.Set) (roles map[string]string, cfg target.Config, closeFn func(), err error) {
	return StartWith(set, OptionsOf(set))
}

// latitudeOptions maps each registered interview latitude to its option name (OptionNames).
var latitudeOptions = map[sabotage.ID]string{
	sabotage.IVLatRefusalDetailWorded: "refusal-detail-worded",
	sabotage.IVLatHTTPJSONFirst:       "http-json-first",
	sabotage.IVLatSkillIDInstructions: "skill-id-instructions",
	sabotage.IVLatRetiredKeySignature: "retired-key-signature",
	sabotage.IVLatES512Signature:      "es512-signature",
	sabotage.IVLatResignPerFetch:      "resign-per-fetch",
}

// OptionsOf returns the options the interview latitudes switched on in set select.
func OptionsOf(set sabotage.Set) Options {
	var o Options
	for _, name := range set.OptionNames(latitudeOptions) {
		OptionNames[name](&o)
	}
	return o
}

// StartWith starts the three agents of the document with set on and latitude options.
func StartWith(set sabotage.Set, opt Options) (roles map[string]string, cfg target.Config, closeFn func(), err error) {
	var started []*Agent
	closeFn = func() {
		for _, a := range started {
			a.srv.Close()
		}
	}
	for _, role := range []string{"interview", "interview.noterms", "interview.churn"} {
		a, err := startAgent(role, set, opt)
		if err != nil {
			closeFn()
			return nil, target.Config{}, nil, fmt.Errorf("%s: %w", role, err)
		}
		started = append(started, a)
	}
	roles = map[string]string{}
	requests := map[string][]string{}
	for _, a := range started {
		roles[a.Role] = a.srv.CardURL()
	}
	for _, s := range skills() {
		requests[s.ID] = s.Examples
	}
	cfg = target.Config{Requests: requests, TrustedKeys: testpki.CardJWKS(), Provider: sow.ProviderOwner}
	return roles, cfg, closeFn, nil
}

// StartAgent starts one agent of the document (role as in the package comment).
func StartAgent(role string, set sabotage.Set) (*Agent, error) {
	return startAgent(role, set, Options{})
}

func startAgent(role string, set sabotage.Set, opt Options) (*Agent, error) {
	a := &Agent{Role: role, Model: &Model{}, set: set, opt: opt, terms: role != "interview.noterms" && !set.On(sabotage.IVNoTermsDeclaration), churnVersion: 1}
	sa := a2atest.Agent{
		Name:    "interview reference agent (" + role + ")",
		Card:    a.card,
		Signer:  &a2atest.CardSigner{Key: testpki.CardKeyES256(), Alg: "ES256", KID: testpki.KIDES256, JKU: true},
		Methods: map[string]func(*a2atest.Ctx, json.RawMessage) (any, *a2a.RPCError){},
		OnSend:  a.onSend,
		Before:  a.before,
		Routes:  map[string]http.HandlerFunc{"GET /terms/{file}": a.serveProposal},
	}
	sa.ResignPerFetch = opt.ResignPerFetch
	if opt.ES512 {
		sa.Signer = &a2atest.CardSigner{Key: es512Key, Alg: "ES512", KID: "extconf-test-es512", JKU: true}
	}
	for _, m := range methods {
		sa.Methods["interview/"+m] = a.method(m)
	}
	srv, err := a2atest.Start(sa, crosscut.Options(set, "interview", a2atest.Options{TLS: true}))
	if err != nil {
		return nil, err
	}
	a.srv = srv
	if err := a.rebuild(); err != nil {
		srv.Close()
		return nil, err
	}
	return a, nil
}

// rebuild makes the answer cache from the card exactly as served: answers change when the declarations change.
func (a *Agent) rebuild() error {
	cache, err := buildAnswers(a.srv.CardBytes(), a.srv.URL(), nil)
	if err != nil {
		return err
	}
	stale, err := buildAnswers(a.srv.CardBytes(), a.srv.URL(), cardV0)
	if err != nil {
		return err
	}
	a.mu.Lock()
	a.cache, a.stale = cache, stale
	a.mu.Unlock()
	return nil
}

// card is the served card (the core signs it). Only the toggles that concern the card itself change it.
func (a *Agent) card(base string) any {
	c := &a2a.AgentCard{
		Name:                "Stonework reconciliation agent",
		Description:         "Reconciles bank statements against ledger exports and categorises transactions, on the published terms of Stonework Ledger Ltd.",
		SupportedInterfaces: a.interfaces(base),
		Provider:            &a2a.AgentProvider{Organization: sow.ProviderOwner, URL: "https://stonework.example"},
		Version:             "1.0.0",
		DefaultInputModes:   []string{"text/plain", "text/csv"},
		DefaultOutputModes:  []string{"application/json"},
		Skills:              skills(),
	}
	if a.opt.SkillInstructions {
		c.Skills = append(c.Skills, a2a.AgentSkill{ID: "follow-filing-instructions", Name: "Follow filing instructions",
			Description: "Files each reconciled statement as the client's filing instructions say.", Tags: []string{"bookkeeping"},
			Examples: []string{"File the July statement per our instructions."}})
	}
	iv := a2a.AgentExtension{URI: InterviewURI, Description: "The five questions, answered from declared documents"}
	if a.set.On(sabotage.IVInterviewEntryRequired) {
		iv.Required = true
	}
	if a.terms {
		c.Capabilities.Extensions = append(c.Capabilities.Extensions, termsEntry(base))
	}
	c.Capabilities.Extensions = append(c.Capabilities.Extensions, iv)
	if a.Role == "interview.churn" {
		a.mu.Lock()
		v := a.churnVersion
		a.mu.Unlock()
		c.Name = "Stonework reconciliation agent (churn)"
		if v == 2 {
			c.Version = "1.1.0"
			c.Skills[1].Description = "Assigns each transaction of a ledger export to a chart-of-accounts category, now with VAT codes."
		}
	}
	if a.opt.RetiredKeySignature {
		b, err := json.Marshal(c)
		if err == nil {
			if b, err = retiredSigner.Sign(b, ""); err == nil {
				return json.RawMessage(b) // the core appends the current signature
			}
		}
	}
	return c
}

func (a *Agent) interfaces(base string) []a2a.AgentInterface {
	ifs := a2atest.Interfaces(base)
	if a.opt.HTTPJSONFirst {
		slices.Reverse(ifs)
	}
	return ifs
}

// es512Key is a P-521 card-signing key (TEST ONLY, fresh per process), published only through the card's jku.
var es512Key = func() *ecdsa.PrivateKey {
	k, _ := ecdsa.GenerateKey(elliptic.P521(), rand.Reader)
	return k
}()

// retiredSigner is a card-signing key that has been rotated out (TEST ONLY, fresh per process; trusted nowhere).
var retiredSigner = func() *a2atest.CardSigner {
	_, k, _ := ed25519.GenerateKey(rand.Reader)
	return &a2atest.CardSigner{Key: k, Alg: "EdDSA", KID: "extconf-test-retired"}
}()

func skills() []a2a.AgentSkill {
	return []a2a.AgentSkill{
		{ID: "reconcile-statement", Name: "Reconcile statement",
			Description: "Reconciles one bank statement against the client's ledger export. Reports every unmatched line with the reason it did not match.",
			Tags:        []string{"reconciliation", "bookkeeping"}, Examples: []string{"Reconcile the July statement against the ledger export."},
			InputModes: []string{"text/csv", "application/x-ofx"}, OutputModes: []string{"application/json"}},
		{ID: "categorise-transactions", Name: "Categorise transactions",
			Description: "Assigns each transaction of a ledger export to a chart-of-accounts category.",
			Tags:        []string{"bookkeeping"}, Examples: []string{"Categorise the transactions of the attached ledger export."},
			InputModes: []string{"text/csv"}, OutputModes: []string{"application/json"}},
	}
}

func termsEntry(base string) a2a.AgentExtension {
	type entry struct {
		URL      string `json:"url"`
		Digest   string `json:"digest"`
		Sow      string `json:"sow"`
		Offering string `json:"offering"`
	}
	var es []entry
	for _, name := range committed {
		p, _ := sow.ByName(name)
		es = append(es, entry{URL: proposalURL(base, name), Digest: p.Digest, Sow: p.ID, Offering: p.Offering})
	}
	params, _ := json.Marshal(map[string]any{"sow_spec": "0.18.0-draft", "proposals": es})
	return a2a.AgentExtension{URI: TermsURI, Description: "Published terms: signed Agent SoW standing proposals, committed by digest", Params: params}
}

func proposalURL(base, name string) string { return base + "/terms/" + name + ".sow.json" }

// serveProposal serves a committed proposal's exact signed bytes (the uncommitted one only when sabotaged).
func (a *Agent) serveProposal(w http.ResponseWriter, r *http.Request) {
	file := r.PathValue("file")
	names := committed
	if a.set.On(sabotage.IVTermsFromUncommittedProposal) {
		names = append(append([]string(nil), committed...), uncommitted)
	}
	for _, n := range names {
		if file == n+".sow.json" {
			p, _ := sow.ByName(n)
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(p.Doc)
			return
		}
	}
	http.NotFound(w, r)
}

// onSend is ordinary traffic: the model runs and the task completes at once.
func (a *Agent) onSend(c *a2atest.Ctx, req a2a.SendMessageRequest) a2atest.Reply {
	a.Model.Invoke()
	return a2atest.Reply{Task: &a2a.Task{
		Status:    a2a.TaskStatus{State: a2a.StateCompleted},
		History:   []a2a.Message{req.Message},
		Artifacts: []a2a.Artifact{{ArtifactID: "result", Name: "result", Parts: []a2a.Part{a2a.DataPart(map[string]any{"status": "done"})}}},
	}}
}

// sideEffects is where a correct interview call does nothing at all; only toggles act here.
func (a *Agent) sideEffects(c *a2atest.Ctx) {
	tasks := a.srv.Tasks()
	if a.set.On(sabotage.IVInterviewTouchesTask) {
		if list := tasks.List(c.Tenant); len(list) > 0 {
			t := list[0]
			t.History = append(t.History, a2a.Message{MessageID: fmt.Sprintf("iv-touch-%d", time.Now().UnixNano()),
				Role: a2a.RoleAgent, Parts: []a2a.Part{a2a.TextPart("interview served")}})
			tasks.Put(&t)
		}
	}
	if a.set.On(sabotage.IVInterviewCreatesTask) {
		tasks.Put(newTask("iv-interview"))
	}
	if a.set.On(sabotage.IVInterviewEnqueuesDeferredTask) {
		time.AfterFunc(deferredDelay, func() { tasks.Put(newTask("iv-queued")) })
	}
}

var taskSeq atomic.Int64

func newTask(prefix string) *a2a.Task {
	id := fmt.Sprintf("%s-%d", prefix, taskSeq.Add(1))
	return &a2a.Task{ID: id, ContextID: id + "-ctx",
		Status: a2a.TaskStatus{State: a2a.StateCompleted, Timestamp: a2atest.Timestamp(time.Now())}}
}

// churn moves interview.churn to its next version at its first interview call: the card is re-signed and the
// cache rebuilt together, as a deployment would, so only a verifier holding the old card sees a conflict.
func (a *Agent) churn() {
	if a.Role != "interview.churn" {
		return
	}
	a.mu.Lock()
	if a.churnVersion != 1 {
		a.mu.Unlock()
		return
	}
	a.churnVersion = 2
	a.mu.Unlock()
	a.srv.Reload()
	_ = a.rebuild()
}
