package main

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/clientcert"
	"github.com/extconf/extconf/harness/evidence"
	vinterview "github.com/extconf/extconf/refclients/interview"
	vonrequest "github.com/extconf/extconf/refclients/onrequest"
	"github.com/extconf/extconf/refclients/skiface"
	vterms "github.com/extconf/extconf/refclients/terms"
	"github.com/extconf/extconf/sabotage"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
}

type report struct {
	Steps    []string `json:"steps,omitempty"`
	Local    bool     `json:"local,omitempty"`
	Step     string   `json:"step,omitempty"`
	Message  string   `json:"message,omitempty"`
	Sabotage []string `json:"sabotage,omitempty"`
}

func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("refclient", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sab := fs.String("sabotage", getenv("EXTCONF_REFCLIENT_SABOTAGE"), "comma-separated client-side toggles to switch on (a deliberately broken client)")
	actions := fs.String("actions", "", "declare only these contract actions in the version reply (comma-separated; default: all five), as a client implementing a subset would")
	omit := fs.String("omit", "", "answer as a client that predates these contract members (comma-separated: limits, cache_entries, display, ranking, compile_budget, schema_copy, hooks = both hooks): the version reply declares no limits (no cache_entries), the verify-terms reply carries no display, a catalog is not ranked, the hook is not offered (its variable ignored)")
	limitsFlag := fs.String("limits", "", "run the invoke action with these validator limits, and declare them (comma-separated name=value: schema_bytes, nesting, reference_depth, payload_bytes, cache_entries; default: the reference client's)")
	noCache := fs.Bool("no-cache", false, "keep no validated document across invocations (describe_skill before every task), as a client without a document cache")
	ignoreDigest := fs.Bool("ignore-digest", false, "shorthand for --sabotage "+string(sabotage.SIClientSkipDocumentDigest)+": trust the carried interface digest without calculating it")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	lim := skiface.DefaultLimits() // the limits the invoke action runs with (skiface.Client's defaults, unless --limits)
	for _, kv := range strings.Split(*limitsFlag, ",") {
		if kv == "" {
			continue
		}
		k, v, _ := strings.Cut(kv, "=")
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			fmt.Fprintln(stderr, "refclient: --limits:", kv)
			return 2
		}
		switch k {
		case "schema_bytes":
			lim.MaxSchemaBytes = n
		case "nesting":
			lim.MaxNesting = n
		case "reference_depth":
			lim.MaxRefDepth = n
		case "payload_bytes":
			lim.MaxPayloadBytes = int64(n)
		case "cache_entries":
			lim.MaxCacheEntries = n
		default:
			fmt.Fprintln(stderr, "refclient: --limits: no limit", k)
			return 2
		}
	}
	omitted := func(member string) bool { return slices.Contains(strings.Split(*omit, ","), member) }
	var hooks []string // the contract's hooks this adapter offers: each sets a field of skiface.Client
	for _, h := range []string{clientcert.HookCompileBudget, clientcert.HookSchemaCopy} {
		if !omitted(h) && !omitted("hooks") {
			hooks = append(hooks, h)
		}
	}
	ids := strings.Split(*sab, ",")
	if *ignoreDigest {
		ids = append(ids, string(sabotage.SIClientSkipDocumentDigest))
	}
	set, err := sabotage.Parse(ids...)
	if err != nil {
		fmt.Fprintln(stderr, "refclient:", err)
		return 2
	}
	reply := func(r clientcert.Reply) int {
		b, _ := json.Marshal(r)
		fmt.Fprintln(stdout, string(b))
		return 0
	}
	refuse := func(reason string, rep report) int {
		rep.Sabotage = set.IDs()
		b, _ := json.Marshal(rep)
		return reply(clientcert.Reply{Outcome: clientcert.OutcomeRefused, Reason: reason, Report: b})
	}
	action := getenv(clientcert.EnvAction)
	switch action {
	case clientcert.ActionVersion:
		v := evidence.Version
		if !set.Empty() {
			v += "+sabotage:" + strings.Join(set.IDs(), ",")
		}
		declared := []string{clientcert.ActionInvoke, clientcert.ActionInvokeBase, clientcert.ActionDelegate, clientcert.ActionVerifyTerms, clientcert.ActionInterview, clientcert.ActionRelay}
		if *actions != "" {
			declared = strings.Split(*actions, ",")
		}
		var limits *clientcert.Limits
		if !omitted("limits") {
			limits = &clientcert.Limits{SchemaBytes: lim.MaxSchemaBytes, Nesting: lim.MaxNesting, ReferenceDepth: lim.MaxRefDepth,
				ReferenceCycles: true, PayloadBytes: int(lim.MaxPayloadBytes), CompileTimeMS: int(lim.CompileTimeout.Milliseconds()),
				CacheEntries: lim.MaxCacheEntries, CacheBytes: lim.MaxCacheBytes}
			if omitted("cache_entries") {
				limits.CacheEntries = 0
			}
		}
		return reply(clientcert.Reply{Name: "extconf reference client (refclients/skiface, refclients/terms, refclients/interview, refclients/onrequest)",
			Version: v, Actions: declared, Limits: limits, Hooks: hooks})
	case clientcert.ActionInvoke, clientcert.ActionInvokeBase, clientcert.ActionDelegate, clientcert.ActionVerifyTerms, clientcert.ActionInterview, clientcert.ActionRelay:
	default:
		return refuse(clientcert.ReasonUnsupportedAction, report{Message: "this adapter speaks the invoke, invoke-base, delegate, verify-terms, interview and relay actions; got " + strconv.Quote(action)})
	}
	timeout := 30 * time.Second
	if s, err := strconv.Atoi(getenv(clientcert.EnvTimeoutSecs)); err == nil && s > 1 {
		timeout = time.Duration(s-1) * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var roots *x509.CertPool
	if f := getenv(clientcert.EnvCAFile); f != "" {
		pem, err := os.ReadFile(f)
		if err != nil {
			fmt.Fprintln(stderr, "refclient:", err)
			return 2
		}
		roots = x509.NewCertPool()
		if !roots.AppendCertsFromPEM(pem) {
			fmt.Fprintln(stderr, "refclient: no certificate in", f)
			return 2
		}
	}
	c := a2a.NewClient(a2a.Options{RootCAs: roots})
	if h := getenv(clientcert.EnvAuthHeader); h != "" {
		c = c.WithHeader(h, getenv(clientcert.EnvAuthValue))
	}
	switch action {
	case clientcert.ActionVerifyTerms:
		if raw := getenv(clientcert.EnvCardURLs); raw != "" && !omitted("ranking") {
			return rankTerms(ctx, c, raw, set, reply)
		}
		return verifyTerms(ctx, c, getenv(clientcert.EnvCardURL), set, !omitted("display"), reply)
	case clientcert.ActionInterview:
		var hdr map[string][]string
		if h := getenv(clientcert.EnvAuthHeader); h != "" {
			hdr = map[string][]string{h: {getenv(clientcert.EnvAuthValue)}}
		}
		return interview(ctx, a2a.NewClient(a2a.Options{RootCAs: roots}), getenv, hdr, set, reply)
	case clientcert.ActionRelay:
		return relay(ctx, c, getenv, set, reply)
	}
	args0 := json.RawMessage(getenv(clientcert.EnvArguments))
	if len(args0) == 0 {
		args0 = json.RawMessage(`{}`)
	}
	if !json.Valid(args0) {
		return refuse("input_invalid", report{Message: clientcert.EnvArguments + " is not JSON", Local: true})
	}
	// The hooks: the compilation budget and the Skill Interface Schema copy the harness hands (a client not
	// offering a hook ignores its variable).
	var schemaCopy []byte
	if raw := getenv(clientcert.EnvCompileBudget); raw != "" && slices.Contains(hooks, clientcert.HookCompileBudget) {
		ns, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || ns <= 0 {
			return refuse("error", report{Message: clientcert.EnvCompileBudget + " " + strconv.Quote(raw) + " is not a positive number of nanoseconds", Local: true})
		}
		lim.CompileTimeout = time.Duration(ns)
	}
	if p := getenv(clientcert.EnvSchemaCopy); p != "" && slices.Contains(hooks, clientcert.HookSchemaCopy) {
		if schemaCopy, err = os.ReadFile(p); err != nil {
			return refuse("error", report{Message: "the Skill Interface Schema copy: " + err.Error(), Local: true})
		}
	}
	// Fetch is consulted only by a deliberately broken validator (si.client-validator-retrieval-enabled): it then
	// retrieves, from loopback only, as such a client would.
	cl := &skiface.Client{A2A: c, Sabotage: set, Limits: lim, Fetch: loopbackFetch(c), TrustedSchema: schemaCopy, NoCache: *noCache}
	switch p := getenv(clientcert.EnvPolicy); p {
	case "", "permit":
	case "deny":
		cl.Policy.Permit = func(string, json.RawMessage) error {
			return errors.New("the local policy denies this skill to this caller")
		}
	case "no-approval":
		cl.Policy.Approve = func(string, json.RawMessage) error { return errors.New("no approval is recorded for this invocation") }
	default:
		return refuse("input_invalid", report{Message: clientcert.EnvPolicy + " " + strconv.Quote(p) + " is not permit, deny or no-approval", Local: true})
	}
	if action == clientcert.ActionDelegate {
		return delegate(ctx, cl, getenv, args0, set, reply)
	}
	if action == clientcert.ActionInvokeBase {
		return invokeBase(ctx, cl, getenv, set, reply)
	}
	// One target, or each of EXTCONF_CARD_URLS in turn, and at each the skill, or each of EXTCONF_SKILLS in turn,
	// with the same client (its cache and task table): the reply is the first refusal, else the last completion.
	cards := []string{getenv(clientcert.EnvCardURL)}
	if raw := getenv(clientcert.EnvCardURLs); raw != "" {
		if err := json.Unmarshal([]byte(raw), &cards); err != nil || len(cards) == 0 {
			return refuse("input_invalid", report{Message: clientcert.EnvCardURLs + " is not a JSON array of card URLs", Local: true})
		}
	}
	skills := []string{getenv(clientcert.EnvSkill)}
	if raw := getenv(clientcert.EnvSkills); raw != "" {
		if err := json.Unmarshal([]byte(raw), &skills); err != nil || len(skills) == 0 {
			return refuse("input_invalid", report{Message: clientcert.EnvSkills + " is not a JSON array of skill ids", Local: true})
		}
	}
	var res *skiface.Result
	var done []*skiface.Result
invocations:
	for _, card := range cards {
		for _, skill := range skills {
			res, err = cl.Invoke(ctx, skiface.Request{CardURL: card, SkillID: skill, Version: getenv(clientcert.EnvSkillVer), Arguments: args0})
			if err != nil {
				break invocations
			}
			done = append(done, res)
		}
	}
	if err == nil && getenv(clientcert.EnvRefresh) == "1" {
		for _, r := range done {
			if r.Task != nil {
				_, _, _ = cl.Refresh(ctx, *r.Task) // where the task table says the task lives
			}
		}
	}
	var task *clientcert.TaskRef
	if res != nil && res.Task != nil {
		task = &clientcert.TaskRef{ID: res.Task.ID, State: res.RemoteState}
	}
	rep := report{}
	if res != nil {
		for _, s := range res.Steps {
			mark := "ok"
			if !s.OK {
				mark = "stopped"
			}
			rep.Steps = append(rep.Steps, s.Name+": "+mark)
		}
	}
	if err != nil {
		if res == nil {
			res = &skiface.Result{}
		}
		var se *skiface.Error
		code := "error"
		var details []clientcert.Detail
		if errors.As(err, &se) {
			code, rep.Step = se.Code, se.Step
			if code == "" {
				code = "error" // a sabotaged client that drops the code: prose only
			}
			for _, d := range se.Details {
				details = append(details, clientcert.Detail{InstancePath: d.InstancePath, Keyword: d.Keyword, Message: d.Message})
			}
		}
		rep.Message = err.Error()
		if res != nil {
			rep.Local = res.Local
		}
		rep.Sabotage = set.IDs()
		b, _ := json.Marshal(rep)
		// An output the client would still hand its caller is reported, refusal or not: the contract grades it.
		return reply(clientcert.Reply{Outcome: clientcert.OutcomeRefused, Reason: code, Output: res.Output, Report: b,
			Local: res.Local, Task: task, Details: details})
	}
	rep.Sabotage = set.IDs()
	b, _ := json.Marshal(rep)
	return reply(clientcert.Reply{Outcome: clientcert.OutcomeCompleted, Output: res.Output, Report: b, Task: task})
}

// verifyTerms runs the reference terms consumer (refclients/terms) over the card: the entries whose digest
// and provider signature verify are the agent's terms; none means terms not stated.
func verifyTerms(ctx context.Context, c *a2a.Client, cardURL string, set sabotage.Set, show bool, reply func(clientcert.Reply) int) int {
	card, _, err := c.FetchCard(ctx, cardURL, a2a.Call{Note: "refclient: the card"})
	if err != nil {
		b, _ := json.Marshal(report{Message: err.Error(), Sabotage: set.IDs()})
		return reply(clientcert.Reply{Outcome: clientcert.OutcomeRefused, Reason: "error", Report: b})
	}
	o := vterms.Card(ctx, c, card, set)
	var ds []string
	for _, p := range o.Proposals {
		ds = append(ds, p.Entry.Digest)
	}
	b, _ := json.Marshal(map[string]any{"view": o.View, "signals": o.Signals, "sabotage": set.IDs()})
	var display *string
	if show {
		text := vterms.RenderText(o, set) // the terminal terms view: what the reference consumer shows a person
		display = &text
	}
	if len(ds) == 0 {
		return reply(clientcert.Reply{Outcome: clientcert.OutcomeRefused, Reason: "terms_not_stated", Report: b, Display: display})
	}
	return reply(clientcert.Reply{Outcome: clientcert.OutcomeCompleted, Verified: ds, Report: b, Display: display})
}

// interview runs the reference interview verifier (refclients/interview, §8) against the card and reports its
// record: who ran it, the standing, the closure probes as counted, and its rendering for people.
func interview(ctx context.Context, c *a2a.Client, getenv func(string) string, hdr map[string][]string, set sabotage.Set, reply func(clientcert.Reply) int) int {
	by := vinterview.RunBy{Name: getenv(clientcert.EnvRunnerName), Tier: getenv(clientcert.EnvRunnerTier)}
	rep := vinterview.Run(ctx, c, getenv(clientcert.EnvCardURL), vinterview.Options{RunBy: by, Header: hdr, Set: set})
	res := &clientcert.InterviewResult{Outcome: strings.ReplaceAll(rep.Outcome, " ", "-"), Standing: rep.Standing, Passed: rep.Passed, Failed: rep.Failed}
	if rep.RunBy != nil {
		res.RunBy = &clientcert.RunBy{Name: rep.RunBy.Name, Tier: rep.RunBy.Tier}
	}
	for _, p := range rep.Probes {
		res.Probes = append(res.Probes, clientcert.InterviewProbe{Name: p.Name, Correct: p.Correct, CountedAs: p.CountedAs})
	}
	exit := 0
	if rep.Outcome == vinterview.NotImplemented {
		// How the verifier reads absence (§9 rule 2): its reason, and whether it lowers anything.
		a := vinterview.Applies(nil, set)
		res.Reason = a.Reason
		if a.Verdict != harness.Inapplicable {
			res.Failed++
			exit = 1
		}
	}
	var out strings.Builder
	rep.Render(&out)
	res.Display = out.String()
	if vinterview.RendererFaults(set).SelfAsEvidence {
		res.Display = strings.Replace(res.Display, "CLAIM, NOT EVIDENCE (self-run)", "EVIDENCE", 1)
	}
	b, _ := json.Marshal(report{Sabotage: set.IDs()})
	reply(clientcert.Reply{Outcome: clientcert.OutcomeCompleted, Interview: res, Report: b})
	return exit
}

// relay is the reference assistant (refclients/onrequest.Relay): it sends the person's request to the skill,
// with the extension activated and acting for the person when one is named, and relays the reply in its words.
func relay(ctx context.Context, c *a2a.Client, getenv func(string) string, set sabotage.Set, reply func(clientcert.Reply) int) int {
	fail := func(err error) int {
		b, _ := json.Marshal(report{Message: err.Error(), Sabotage: set.IDs()})
		return reply(clientcert.Reply{Outcome: clientcert.OutcomeRefused, Reason: "error", Report: b})
	}
	card, ex, err := c.FetchCard(ctx, getenv(clientcert.EnvCardURL), a2a.Call{Note: "refclient: the card"})
	if err != nil {
		return fail(err)
	}
	in := vonrequest.RelayInput{SkillID: getenv(clientcert.EnvSkill)}
	if card.Provider != nil {
		in.Operator = card.Provider.Organization
	}
	if d, err := vonrequest.FindDeclaration(ex.ResponseBody); err == nil && d != nil {
		in.Entry, _ = d.Entry(in.SkillID)
	}
	rpc, ok := card.Interface(a2a.BindingJSONRPC)
	if !ok {
		return fail(errors.New("the card lists no JSON-RPC interface"))
	}
	req := a2a.SendMessageRequest{Message: a2a.Message{MessageID: "refclient-relay", Role: a2a.RoleUser, Parts: []a2a.Part{a2a.TextPart(getenv(clientcert.EnvRequest))}}}
	if p := getenv(clientcert.EnvActingFor); p != "" {
		md, _ := json.Marshal(map[string]any{vonrequest.URI: map[string]any{"actingFor": map[string]string{"name": p}}})
		req.Metadata = md
	}
	res, _, _, err := c.SendMessage(ctx, rpc.URL, req, a2a.Call{Extensions: []string{vonrequest.URI}, Note: "refclient: the person's request"})
	if err != nil {
		return fail(err)
	}
	in.Reply = vonrequest.ReplyFromResult(res)
	var others []vonrequest.OtherSource
	if raw := getenv(clientcert.EnvOtherSource); raw != "" {
		var list []struct{ Source, Value string }
		if err := json.Unmarshal([]byte(raw), &list); err != nil {
			return fail(fmt.Errorf("%s: %v", clientcert.EnvOtherSource, err))
		}
		for _, o := range list {
			others = append(others, vonrequest.OtherSource{Source: o.Source, Value: o.Value})
		}
	}
	msg, err := vonrequest.Relay(in, others, set)
	if err != nil {
		return fail(err)
	}
	b, _ := json.Marshal(report{Sabotage: set.IDs()})
	return reply(clientcert.Reply{Outcome: clientcert.OutcomeCompleted, Message: msg, Report: b})
}

// delegate is the reference orchestrator (skiface.Client.Compose): the upstream skill, then — only when the
// references agree and the transferred instance validates — the downstream skill as a new task, the hop recorded
// in a correlation record. EXTCONF_TRANSFER_MEMBERS are added to the transferred instance; EXTCONF_DOMAIN_RULE is a
// freshness handler on the instance validated against its schema_uri.
func delegate(ctx context.Context, cl *skiface.Client, getenv func(string) string, args json.RawMessage, set sabotage.Set, reply func(clientcert.Reply) int) int {
	fail := func(code string, err error) int {
		b, _ := json.Marshal(report{Message: err.Error(), Local: true, Sabotage: set.IDs()})
		return reply(clientcert.Reply{Outcome: clientcert.OutcomeRefused, Reason: code, Local: true, Report: b})
	}
	var transfer func(json.RawMessage) json.RawMessage
	if raw := getenv(clientcert.EnvTransferAdd); raw != "" {
		var add map[string]json.RawMessage
		if err := json.Unmarshal([]byte(raw), &add); err != nil {
			return fail("input_invalid", fmt.Errorf("%s: %v", clientcert.EnvTransferAdd, err))
		}
		transfer = func(out json.RawMessage) json.RawMessage {
			var m map[string]json.RawMessage
			if json.Unmarshal(out, &m) != nil {
				return out
			}
			for k, v := range add {
				m[k] = v
			}
			b, _ := json.Marshal(m)
			return b
		}
	}
	if raw := getenv(clientcert.EnvDomainRule); raw != "" {
		var rule struct {
			SchemaURI string    `json:"schema_uri"`
			MaxAge    int       `json:"max_age_seconds"`
			Now       time.Time `json:"now"`
		}
		if err := json.Unmarshal([]byte(raw), &rule); err != nil {
			return fail("input_invalid", fmt.Errorf("%s: %v", clientcert.EnvDomainRule, err))
		}
		cl.Handlers = map[string]func(json.RawMessage) error{rule.SchemaURI: func(inst json.RawMessage) error {
			var m struct {
				ObservedAt time.Time `json:"observed_at"`
			}
			if err := json.Unmarshal(inst, &m); err != nil {
				return err
			}
			if age := rule.Now.Sub(m.ObservedAt); age > time.Duration(rule.MaxAge)*time.Second {
				return fmt.Errorf("observation is %s old, the limit is %ds", age, rule.MaxAge)
			}
			return nil
		}}
	}
	up := skiface.Request{CardURL: getenv(clientcert.EnvCardURL), SkillID: getenv(clientcert.EnvSkill), Arguments: args}
	down := skiface.Request{CardURL: getenv(clientcert.EnvDownCardURL), SkillID: getenv(clientcert.EnvDownSkill)}
	comp, err := cl.Compose(ctx, up, down, transfer)
	out := clientcert.Reply{Outcome: clientcert.OutcomeCompleted}
	if comp != nil && comp.Correlation != nil {
		c := comp.Correlation
		out.Correlation = &clientcert.Correlation{
			Upstream:   clientcert.Hop{Endpoint: c.Upstream.Endpoint, TaskID: c.Upstream.TaskID, SkillID: c.Upstream.SkillID},
			Downstream: clientcert.Hop{Endpoint: c.Downstream.Endpoint, TaskID: c.Downstream.TaskID, SkillID: c.Downstream.SkillID}}
	}
	if comp != nil && comp.Down != nil && comp.Down.Task != nil {
		out.Task = &clientcert.TaskRef{ID: comp.Down.Task.ID, State: comp.Down.RemoteState}
	}
	rep := report{Sabotage: set.IDs()}
	if err != nil {
		out.Outcome, out.Reason = clientcert.OutcomeRefused, "error"
		var se *skiface.Error
		if errors.As(err, &se) && se.Code != "" {
			out.Reason, rep.Step = se.Code, se.Step
		}
		rep.Message = err.Error()
		if comp != nil && comp.Err != nil {
			out.Local = comp.Down == nil || comp.Down.Local || comp.Down.Task == nil
		}
	} else if comp.Down != nil {
		out.Output = comp.Down.Output
	}
	out.Report, _ = json.Marshal(rep)
	return reply(out)
}

// invokeBase is the reference client's base A2A invocation (skiface.Client.InvokeBase) of an agent without the
// extension: the request as a text part, and what it derived and claims for the invocation.
func invokeBase(ctx context.Context, cl *skiface.Client, getenv func(string) string, set sabotage.Set, reply func(clientcert.Reply) int) int {
	res, err := cl.InvokeBase(ctx, getenv(clientcert.EnvCardURL), getenv(clientcert.EnvSkill), getenv(clientcert.EnvRequest))
	rep := report{Sabotage: set.IDs()}
	out := clientcert.Reply{Outcome: clientcert.OutcomeCompleted}
	if err != nil {
		out.Outcome, out.Reason, rep.Message = clientcert.OutcomeRefused, "error", err.Error()
		var se *skiface.Error
		if errors.As(err, &se) && se.Code != "" {
			out.Reason = se.Code
		}
	}
	if res != nil {
		g := &clientcert.Governance{SchemaGoverned: res.SchemaGoverned}
		if res.InferredSchema != nil {
			g.Schemas = append(g.Schemas, res.InferredSchema)
		}
		if res.Interface != nil {
			b, _ := json.Marshal(res.Interface)
			g.Schemas = append(g.Schemas, b)
		}
		out.Governance = g
		if res.Task != nil {
			out.Task = &clientcert.TaskRef{ID: res.Task.ID, State: res.RemoteState}
		}
	}
	out.Report, _ = json.Marshal(rep)
	return reply(out)
}

// loopbackFetch is the schema retrieval a sabotaged validator does: loopback http(s) only, refused before dialing
// otherwise.
func loopbackFetch(c *a2a.Client) func(ctx context.Context, u string) ([]byte, error) {
	return func(ctx context.Context, raw string) ([]byte, error) {
		u, err := url.Parse(raw)
		if err != nil {
			return nil, err
		}
		if ip := net.ParseIP(u.Hostname()); (u.Scheme != "http" && u.Scheme != "https") || ip == nil || !ip.IsLoopback() {
			return nil, fmt.Errorf("refclient: refused before dialing: %s is not a loopback http(s) URL", raw)
		}
		b, _, err := c.FetchJSON(ctx, raw, a2a.Call{Note: "schema retrieval (sabotaged validator)"})
		return b, err
	}
}

// rankTerms is the reference catalog (refclients/terms RankByPrice, NoCharge) over the cards of
// EXTCONF_CARD_URLS: ranked by lowest verified price, agents whose terms are not stated kept apart.
func rankTerms(ctx context.Context, c *a2a.Client, raw string, set sabotage.Set, reply func(clientcert.Reply) int) int {
	var cards []string
	if err := json.Unmarshal([]byte(raw), &cards); err != nil {
		b, _ := json.Marshal(report{Message: clientcert.EnvCardURLs + ": " + err.Error(), Sabotage: set.IDs()})
		return reply(clientcert.Reply{Outcome: clientcert.OutcomeRefused, Reason: "input_invalid", Report: b})
	}
	var ls []vterms.Listing
	for _, u := range cards {
		card, _, err := c.FetchCard(ctx, u, a2a.Call{Note: "refclient: a catalog card"})
		if err != nil {
			b, _ := json.Marshal(report{Message: err.Error(), Sabotage: set.IDs()})
			return reply(clientcert.Reply{Outcome: clientcert.OutcomeRefused, Reason: "error", Report: b})
		}
		ls = append(ls, vterms.Listing{Name: u, Outcome: vterms.Card(ctx, c, card, set)})
	}
	names := func(ls []vterms.Listing) []string {
		out := []string{}
		for _, l := range ls {
			out = append(out, l.Name)
		}
		return out
	}
	r := vterms.RankByPrice(ls, set)
	b, _ := json.Marshal(report{Sabotage: set.IDs()})
	return reply(clientcert.Reply{Outcome: clientcert.OutcomeCompleted, Report: b, Ranking: &clientcert.Ranking{
		ByPrice: names(r.Priced), NotStated: names(r.NotStated), NoCharge: names(vterms.Filter(ls, vterms.NoCharge(set)))}})
}
