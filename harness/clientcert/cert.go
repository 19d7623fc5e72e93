package clientcert

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/catalog"
)

// Counterpart is a started reference agent (with a scenario's toggles on) for the client to talk to.
type Counterpart struct {
	CardURL string            // the agent's own card URL (the proxy goes in front of it)
	Env     map[string]string // contract variables it needs (credentials)
	Close   func()
	// Resign, when set, sees every body the proxy rewrites (its origin replaced by the proxy's) and re-signs the
	// card among them: upstream is the body as the agent served it, rewritten what the proxy would serve, origin
	// the proxy's origin. It returns the bytes to serve (an answer quoting the card's signatures must quote the new
	// ones); a card whose upstream signature does not verify must stay unverifiable.
	Resign func(upstream, rewritten []byte, origin string) []byte
	// Watched, when set, counts the requests that reached listeners the counterpart watches outside the proxy (a
	// URL a served document names that a conforming client never requests).
	Watched func() int
	// RewriteAnswers: the agent's answers to POSTs name the proxy's origin too (an interview answer projects the
	// card's URLs, which must read as the card the client fetched). Streams are never rewritten.
	RewriteAnswers bool
}

// Starter starts the counterpart of a document's role with the given agent-side toggles on.
type Starter func(ctx context.Context, role string, toggles []string) (*Counterpart, error)

// Scenario is one run of the client under test.
type Scenario struct {
	ID       string `json:"id"`
	Document string `json:"document"`
	Role     string `json:"role"` // the counterpart agent's role
	// Downstream, when set, is the role of a second counterpart (behind its own recording proxy): the delegate
	// action's downstream agent (EXTCONF_DOWNSTREAM_CARD_URL), or the invoke action's second target (both cards in
	// EXTCONF_CARD_URLS). Its exchanges are marked downstream.
	Downstream string          `json:"downstream,omitempty"`
	Action     string          `json:"action"`
	Toggles    []string        `json:"toggles,omitempty"` // agent-side sabotage on the counterpart
	Skill      string          `json:"skill,omitempty"`
	Arguments  json.RawMessage `json:"arguments,omitempty"`
	// Env are the action's other contract variables (runner, the person's request, other sources, …); "{proxy}"
	// in a value is the recording proxy's origin (other cards the same counterpart serves, through the proxy).
	Env map[string]string `json:"env,omitempty"`
	// Files are written to a directory made for the scenario (removed after it); "{file:NAME}" in an Env value is
	// the path of Files[NAME] (a document the client loads from disk).
	Files       map[string][]byte `json:"-"`
	Description string            `json:"description"`
	// Control names the scenario whose completion is this one's positive control: a client that cannot complete
	// it is not shown to refuse the sabotaged answer for the right reason, so this scenario's checks are blocked.
	Control string  `json:"control,omitempty"`
	Checks  []Check `json:"-"`
	// Adapt, when set, fits the scenario to what the client declared in its version reply (e.g. a document sized
	// just beyond a declared limit: the counterpart role it names) before it runs. A non-empty return is why the
	// scenario is not run: its rows read not-tested with that reason (never a pass, never a failure).
	Adapt func(id Identity, sc *Scenario) string `json:"-"`
}

// Check is one assertion on a scenario's observation, about the rows it names.
type Check struct {
	Rows   []string
	Expect string
	Judge  func(o *Observation) Judgement
}

// Judgement is what a check found.
type Judgement struct {
	Verdict  string // harness.ExecutedPass, ExecutedFail or Blocked
	Observed string
	Exchange *Exchange
}

// Pass, Fail and Block build judgements.
func Pass(observed string, ex *Exchange) Judgement {
	return Judgement{harness.ExecutedPass, observed, ex}
}
func Fail(observed string, ex *Exchange) Judgement {
	return Judgement{harness.ExecutedFail, observed, ex}
}
func Block(why string) Judgement { return Judgement{Verdict: harness.Blocked, Observed: why} }

// Judge is pass when ok, fail otherwise.
func Judge(ok bool, observed string, ex *Exchange) Judgement {
	if ok {
		return Pass(observed, ex)
	}
	return Fail(observed, ex)
}

// Observation is everything one scenario produced: what the client sent and what it reported.
type Observation struct {
	Scenario   *Scenario   `json:"-"`
	Invocation Invocation  `json:"invocation"`
	Exchanges  []*Exchange `json:"exchanges"`
	Error      string      `json:"error,omitempty"` // the counterpart or the proxy did not start
	// Watched is how many requests reached the counterpart's watched listeners (Counterpart.Watched).
	Watched int          `json:"watched,omitempty"`
	Control *Observation `json:"-"`

	peers   map[string]*Observation
	secrets []string // credential values handed to the client: redacted from the records
}

// Peer is the observation of another scenario of the run (nil when it was not run): a check comparing two answers
// (a failing entry read exactly as an absent one) reads it.
func (o *Observation) Peer(id string) *Observation {
	if p := o.peers[id]; p != nil && p.Error == "" {
		return p
	}
	return nil
}

// Unanswered is the judgement of a check whose evidence is a reply member the client does not give: the row reads
// not-tested (never a pass, never a failure) and does not count in the run's status.
func Unanswered(why string) Judgement { return Judgement{Verdict: harness.NotTested, Observed: why} }

// Reply is the client's reply, or nil.
func (o *Observation) Reply() *Reply { return o.Invocation.Reply }

// Outcome is the reported outcome, "" without a reply.
func (o *Observation) Outcome() string {
	if r := o.Reply(); r != nil {
		return r.Outcome
	}
	return ""
}

// Describe says what the client did, for failure messages.
func (o *Observation) Describe() string {
	if o.Error != "" {
		return "not run: " + o.Error
	}
	inv := o.Invocation
	if inv.Reply == nil {
		return fmt.Sprintf("no reply (%s; exit %d; stderr %q)", inv.Error, inv.ExitCode, tail(inv.Stderr, 300))
	}
	return fmt.Sprintf("outcome %q reason %q; %d requests sent", inv.Reply.Outcome, inv.Reply.Reason, len(o.Exchanges))
}

// Options configure a certification run.
type Options struct {
	Driver    Driver
	Start     Starter
	Scenarios []Scenario
	// Rows are the rows the run reports (the client-subject rows); rows no scenario checks read Unreached[id]
	// (a verdict and reason), or not-tested "no scenario of the driver contract exercises this row".
	Rows      []catalog.Row
	Unreached map[string]Unreached
	// ProxyCert serves the recording proxy (valid for 127.0.0.1); ProxyCAs trusts the counterpart; CAFile is the
	// PEM path handed to the client (it must trust ProxyCert).
	ProxyCert tls.Certificate
	ProxyCAs  *x509.CertPool
	CAFile    string
	Progress  io.Writer
	// Secrets are credential values redacted wherever they appear in the transcript's request headers.
	Secrets []string
	// ProxyPorts fix the loopback ports of the recording proxy and of the second (downstream) proxy; 0 is any free
	// one. Scenarios run one at a time, each closing its proxies before the next starts.
	ProxyPorts [2]int
}

// Unreached is the verdict of a row no scenario grades: not-tested or inapplicable, always with a reason. Action,
// when set, is the contract action the row belongs to: a client that declares it does not implement that action
// reads the row inapplicable instead.
type Unreached struct {
	Verdict, Reason string
	Action          string
}

// Result is a client certification run.
type Result struct {
	Client    Identity             `json:"client"`
	Started   time.Time            `json:"started"`
	Duration  string               `json:"duration"`
	Scenarios []ScenarioResult     `json:"scenarios"`
	Rows      []harness.RowVerdict `json:"rows"`
	Totals    map[string]int       `json:"totals"`
	// Status is the certification's: passed, failed, nothing-graded (as ScopeStatus) or incomplete (the scope
	// passed, Untested is not empty). ScopeStatus is over the Scope rows only, the rows a check judged on an answer.
	Status      string                  `json:"status"`
	ScopeStatus string                  `json:"scopeStatus"`
	Scope       []string                `json:"scope"`
	Untested    []string                `json:"untested,omitempty"` // requirement rows reading not-tested, each "ID: reason"
	Checks      map[string][]CheckTrace `json:"checks"`             // row → the checks that graded it
	Finished    time.Time               `json:"finished"`

	transcript []byte
	exchanges  int
}

// Transcript is the run's transcript (JSON Lines; the bundle's transcript file).
func (r *Result) Transcript() []byte { return r.transcript }

// ScenarioResult is one scenario's record in the results. NotRun says why a scenario was not run (the client
// declares it does not implement its action); its Observation is then empty.
type ScenarioResult struct {
	Scenario
	NotRun      string       `json:"notRun,omitempty"`
	Observation *Observation `json:"observation"`
}

// notImplemented is the reason a row of an action the client does not implement reads inapplicable.
func notImplemented(id Identity, action string) string {
	return fmt.Sprintf("the client declares it does not implement the %s action (its version reply lists %s): a rule about what it does not do does not apply to it",
		action, strings.Join(id.Actions, ", "))
}

// CheckTrace is one check's judgement on a row.
type CheckTrace struct {
	Scenario string `json:"scenario"`
	Expect   string `json:"expect"`
	Verdict  string `json:"verdict"`
	Observed string `json:"observed"`
	Exchange string `json:"exchange,omitempty"`
}

// Run certifies the client: every scenario once, then the rows' verdicts.
func Run(ctx context.Context, o Options) (*Result, error) {
	res := &Result{Started: time.Now().UTC(), Checks: map[string][]CheckTrace{}}
	res.Client = identify(ctx, o.Driver)
	progress := o.Progress
	if progress == nil {
		progress = io.Discard
	}
	obs := map[string]*Observation{}
	untested := map[string]string{} // scenarios not run: what the client declared does not let them be fitted
	for i := range o.Scenarios {
		sc := &o.Scenarios[i]
		if ctx.Err() != nil {
			break
		}
		if !res.Client.Implements(sc.Action) {
			why := notImplemented(res.Client, sc.Action)
			fmt.Fprintf(progress, "client scenario %-40s not run: %s\n", sc.ID, why)
			res.Scenarios = append(res.Scenarios, ScenarioResult{Scenario: *sc, NotRun: why, Observation: &Observation{Scenario: sc}})
			continue
		}
		if sc.Adapt != nil {
			fitted := *sc
			if why := sc.Adapt(res.Client, &fitted); why != "" {
				untested[sc.ID] = why
				fmt.Fprintf(progress, "client scenario %-40s not run: %s\n", sc.ID, why)
				res.Scenarios = append(res.Scenarios, ScenarioResult{Scenario: *sc, NotRun: why, Observation: &Observation{Scenario: sc}})
				continue
			}
			sc = &fitted
		}
		ob := runScenario(ctx, o, sc)
		obs[sc.ID] = ob
		fmt.Fprintf(progress, "client scenario %-40s %s\n", sc.ID, ob.Describe())
		res.Scenarios = append(res.Scenarios, ScenarioResult{Scenario: *sc, Observation: ob})
	}
	// Number the exchanges across scenarios and give each its transcript id: rows cite them.
	tr, err := buildTranscript(res.Scenarios, o.Secrets)
	if err != nil {
		return nil, err
	}
	res.transcript = tr
	for _, s := range res.Scenarios {
		if s.Observation != nil {
			res.exchanges += len(s.Observation.Exchanges)
		}
	}
	// Grade: each check's judgement contributes to its rows.
	rows := map[string]*acc{}
	inapplicable := map[string]string{} // rows of scenarios not run because the client does not implement their action
	notRun := map[string]string{}       // rows of scenarios not run because what the client declared does not fit them
	for i := range o.Scenarios {
		sc := &o.Scenarios[i]
		ob, ran := obs[sc.ID]
		if !res.Client.Implements(sc.Action) {
			for _, c := range sc.Checks {
				for _, id := range c.Rows {
					inapplicable[id] = notImplemented(res.Client, sc.Action)
				}
			}
			continue
		}
		if why, ok := untested[sc.ID]; ok {
			for _, c := range sc.Checks {
				for _, id := range c.Rows {
					if _, seen := notRun[id]; !seen {
						notRun[id] = fmt.Sprintf("scenario %s not run: %s", sc.ID, why)
					}
				}
			}
			continue
		}
		for _, c := range sc.Checks {
			var j Judgement
			switch {
			case !ran:
				j = Judgement{Verdict: harness.NotTested, Observed: "interrupted"}
			case ob.Error != "":
				j = Block("the counterpart could not be started: " + ob.Error)
			case sc.Control != "" && (obs[sc.Control] == nil || obs[sc.Control].Outcome() != OutcomeCompleted):
				seen := "not run"
				if obs[sc.Control] != nil {
					seen = obs[sc.Control].Describe()
				}
				j = Block(fmt.Sprintf("positive control failed: the client completes scenario %s — %s", sc.Control, seen))
			default:
				ob.Control, ob.peers = obs[sc.Control], obs
				j = c.Judge(ob)
			}

			exd := ""
			if j.Exchange != nil {
				exd = fmt.Sprintf("%s (%s ex#%d %s %s)", j.Exchange.ID, sc.ID, j.Exchange.Seq, j.Exchange.Method, j.Exchange.Path)
			}
			for _, id := range c.Rows {
				a := rows[id]
				if a == nil {
					a = &acc{verdict: harness.ExecutedPass}
					rows[id] = a
				}
				a.checksOnThisRows++
				a.interrupted = a.interrupted || !ran
				res.Checks[id] = append(res.Checks[id], CheckTrace{Scenario: sc.ID, Expect: c.Expect, Verdict: j.Verdict, Observed: j.Observed, Exchange: exd})
				if j.Verdict == harness.ExecutedPass {
					a.assertions++
				} else {
					a.details = append(a.details, fmt.Sprintf("[%s] %s: expected: %s; observed: %s%s", sc.ID, j.Verdict, c.Expect, j.Observed, exSuffix(exd)))
				}
				if j.Exchange != nil && !slices.Contains(a.exs, j.Exchange.ID) {
					a.exs = append(a.exs, j.Exchange.ID)
				}
				a.verdict = worse(a.verdict, j.Verdict)
			}
		}
	}
	res.Totals = map[string]int{}
	for _, r := range o.Rows {
		v := harness.RowVerdict{ID: r.ID, Document: r.Document, Aliases: r.Aliases}
		if a, ok := rows[r.ID]; ok {
			v.Verdict, v.Assertions, v.Exchanges = a.verdict, a.assertions, a.exs
			v.Detail = strings.Join(a.details, "\n")
			if v.Verdict == harness.ExecutedPass && a.assertions == 0 {
				v.Verdict, v.Detail = harness.NotTested, "no assertion ran"
			}
		} else if why, ok := inapplicable[r.ID]; ok {
			v.Verdict, v.Detail = harness.Inapplicable, why
		} else if why, ok := notRun[r.ID]; ok {
			v.Verdict, v.Detail = harness.NotTested, why
		} else if u, ok := o.Unreached[r.ID]; ok && u.Action != "" && !res.Client.Implements(u.Action) {
			v.Verdict, v.Detail = harness.Inapplicable, notImplemented(res.Client, u.Action)
		} else if ok {
			v.Verdict, v.Detail = u.Verdict, u.Reason
		} else {
			v.Verdict, v.Detail = harness.NotTested, "no scenario of the driver contract exercises this row"
		}
		res.Rows = append(res.Rows, v)
		res.Totals[v.Verdict]++
	}
	// The scope status rests on the rows a check judged on an answer; a row reading not-tested (a check found no
	// answer to judge: Unanswered) counts neither way there, unless the run was interrupted before its scenario
	// ran. It does keep the certification from passing: a MUST row not tested makes it incomplete.
	res.Scope = scope(rows)
	res.ScopeStatus = scopeStatus(res.Rows, res.Scope)
	res.Untested = Untested(res.Rows, o.Rows)
	res.Status = CertStatus(res.ScopeStatus, res.Untested)
	res.Finished = time.Now().UTC()
	res.Duration = res.Finished.Sub(res.Started).Round(time.Millisecond).String()
	return res, nil
}

func exSuffix(exd string) string {
	if exd == "" {
		return ""
	}
	return "; exchange " + exd
}

// acc is one row's grading so far.
type acc struct {
	verdict          string
	assertions       int
	details, exs     []string
	checksOnThisRows int
	interrupted      bool // the run stopped before the scenario ran
}

// worse orders judgements: a failure outweighs a block, a block a missing assertion, that a pass.
func worse(a, b string) string {
	rank := map[string]int{harness.ExecutedPass: 0, harness.NotTested: 1, harness.Blocked: 2, harness.ExecutedFail: 3}
	if rank[b] > rank[a] {
		return b
	}
	return a
}

func identify(ctx context.Context, d Driver) Identity {
	id := Identity{Command: d.Command}
	inv := d.Run(ctx, map[string]string{EnvAction: ActionVersion})
	switch {
	case inv.Reply == nil:
		id.Error = inv.Error
	default:
		id.Name, id.Version, id.Actions, id.Limits, id.Hooks = inv.Reply.Name, inv.Reply.Version, inv.Reply.Actions, inv.Reply.Limits, inv.Reply.Hooks
	}
	return id
}

func runScenario(ctx context.Context, o Options, sc *Scenario) *Observation {
	ob := &Observation{Scenario: sc}
	cp, err := o.Start(ctx, sc.Role, sc.Toggles)
	if err != nil {
		ob.Error = err.Error()
		return ob
	}
	defer cp.Close()
	px, err := startProxy(cp.CardURL, o.ProxyCert, o.ProxyCAs, cp.Resign, cp.RewriteAnswers, o.ProxyPorts[0])
	if err != nil {
		ob.Error = "recording proxy: " + err.Error()
		return ob
	}
	defer px.Close()
	env := map[string]string{EnvCardURL: px.CardURL, EnvAction: sc.Action, EnvCAFile: o.CAFile}
	var down *Proxy
	if sc.Downstream != "" {
		dcp, err := o.Start(ctx, sc.Downstream, nil)
		if err != nil {
			ob.Error = "downstream: " + err.Error()
			return ob
		}
		defer dcp.Close()
		if down, err = startProxy(dcp.CardURL, o.ProxyCert, o.ProxyCAs, dcp.Resign, dcp.RewriteAnswers, o.ProxyPorts[1]); err != nil {
			ob.Error = "downstream recording proxy: " + err.Error()
			return ob
		}
		defer down.Close()
		if sc.Action == ActionInvoke {
			both, _ := json.Marshal([]string{px.CardURL, down.CardURL})
			env[EnvCardURLs] = string(both)
		} else {
			env[EnvDownCardURL] = down.CardURL
		}
	}
	if sc.Skill != "" {
		env[EnvSkill] = sc.Skill
	}
	if len(sc.Arguments) > 0 {
		env[EnvArguments] = string(sc.Arguments)
	}
	origin := px.CardURL
	if u, err := url.Parse(px.CardURL); err == nil {
		origin = u.Scheme + "://" + u.Host
	}
	files := map[string]string{}
	if len(sc.Files) > 0 {
		dir, err := os.MkdirTemp("", "extconf-scenario-")
		if err != nil {
			ob.Error = "scenario files: " + err.Error()
			return ob
		}
		defer os.RemoveAll(dir)
		for name, b := range sc.Files {
			p := filepath.Join(dir, filepath.Base(name))
			if err := os.WriteFile(p, b, 0o644); err != nil {
				ob.Error = "scenario files: " + err.Error()
				return ob
			}
			files["{file:"+name+"}"] = p
		}
	}
	for k, v := range sc.Env {
		v = strings.ReplaceAll(v, "{proxy}", origin)
		for ph, p := range files {
			v = strings.ReplaceAll(v, ph, p)
		}
		env[k] = v
	}
	for k, v := range cp.Env {
		env[k] = v
	}
	if v := cp.Env[EnvAuthValue]; v != "" {
		ob.secrets = append(ob.secrets, v)
	}
	ob.Invocation = o.Driver.Run(ctx, env)
	ob.Exchanges = px.Exchanges()
	if cp.Watched != nil {
		ob.Watched = cp.Watched()
	}
	if down != nil {
		// The downstream's exchanges follow the upstream's, numbered on, each marked as the downstream's.
		n := len(ob.Exchanges)
		for _, ex := range down.Exchanges() {
			ex.Seq += n
			ex.Downstream = true
			ob.Exchanges = append(ob.Exchanges, ex)
		}
	}
	return ob
}

// WriteTable prints the per-document totals and every row not passing, then the status line.
func WriteTable(w io.Writer, r *Result) {
	fmt.Fprintf(w, "client under test: %s", r.Client.Command)
	if r.Client.Name != "" || r.Client.Version != "" {
		fmt.Fprintf(w, "  (%s %s)", r.Client.Name, r.Client.Version)
	} else if r.Client.Error != "" {
		fmt.Fprintf(w, "  (version unknown: %s)", r.Client.Error)
	}
	fmt.Fprintf(w, "\nscenarios %d  duration %s\n\n", len(r.Scenarios), r.Duration)
	for _, v := range r.Rows {
		if v.Verdict == harness.ExecutedPass {
			continue
		}
		fmt.Fprintf(w, "%s %s  %s\n", strings.ToUpper(v.Verdict), v.ID, firstLine(v.Detail))
	}
	byDoc := map[string]map[string]int{}
	for _, v := range r.Rows {
		if byDoc[v.Document] == nil {
			byDoc[v.Document] = map[string]int{}
		}
		byDoc[v.Document][v.Verdict]++
	}
	docs := make([]string, 0, len(byDoc))
	for d := range byDoc {
		docs = append(docs, d)
	}
	sort.Strings(docs)
	fmt.Fprintln(w, "\nclient rows (about the client under test):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "document\t"+strings.Join(harness.VerdictOrder, "\t"))
	for _, d := range append(docs, "total") {
		m := byDoc[d]
		if d == "total" {
			m = r.Totals
		}
		cells := []string{d}
		for _, v := range harness.VerdictOrder {
			cells = append(cells, fmt.Sprint(m[v]))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	tw.Flush()
	writeUntested(w, r)
	fmt.Fprintf(w, "%s (%d rows graded by the driver contract's scenarios, %s; the others read not-tested or inapplicable with a reason)\n",
		strings.ToUpper(r.Status), len(r.Scope), r.ScopeStatus)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}
