package clientcert

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// The driver contract: the environment a client under test is started with, once per scenario.
const (
	EnvCardURL     = "EXTCONF_CARD_URL"    // the counterpart's card, through the recording proxy (https)
	EnvAction      = "EXTCONF_ACTION"      // invoke | invoke-base | delegate | verify-terms | interview | relay | version
	EnvSkill       = "EXTCONF_SKILL"       // invoke: the skill_id to call
	EnvArguments   = "EXTCONF_ARGUMENTS"   // invoke: the caller's input, a JSON object
	EnvCAFile      = "EXTCONF_CA_FILE"     // PEM of the CA the counterpart's certificate chains to
	EnvAuthHeader  = "EXTCONF_AUTH_HEADER" // credential: the request header to send on every A2A call …
	EnvAuthValue   = "EXTCONF_AUTH_VALUE"  // … and its value
	EnvTimeoutSecs = "EXTCONF_TIMEOUT_SECONDS"
	EnvSkillVer    = "EXTCONF_SKILL_VERSION"       // invoke: the skill_version the caller asks for ("" or absent: the advertised one)
	EnvPolicy      = "EXTCONF_LOCAL_POLICY"        // invoke: the caller's local policy: permit (absent) | deny | no-approval
	EnvDownCardURL = "EXTCONF_DOWNSTREAM_CARD_URL" // delegate: the downstream agent's card, through its own proxy
	EnvCardURLs    = "EXTCONF_CARD_URLS"           // invoke: a JSON array of cards (two targets, each behind its own proxy): invoke the skill at each, in order, in this one process; verify-terms: the cards of a catalog to rank (the reply's ranking)
	EnvRefresh     = "EXTCONF_REFRESH_TASKS"       // invoke with EXTCONF_CARD_URLS: "1" — afterwards look each task created up once more (GetTask) where the client's task table says it lives
	EnvDownSkill   = "EXTCONF_DOWNSTREAM_SKILL"    // delegate: the downstream skill_id to hand the upstream output to
	EnvTransferAdd = "EXTCONF_TRANSFER_MEMBERS"    // delegate: a JSON object of members the orchestrator adds to the transferred instance
	EnvDomainRule  = "EXTCONF_DOMAIN_RULE"         // delegate: a freshness rule {"schema_uri","max_age_seconds","now"} the orchestrator enforces
	EnvRunnerName  = "EXTCONF_RUNNER_NAME"         // interview: who the verifier records as running the interview …
	EnvRunnerTier  = "EXTCONF_RUNNER_TIER"         // … and their tier: self | third-party
	EnvRequest     = "EXTCONF_REQUEST"             // relay, invoke-base: what is asked, in words (send it to the skill as a text part)
	EnvActingFor   = "EXTCONF_ACTING_FOR"          // relay: the person the assistant acts for ("" acting for nobody)
	EnvOtherSource = "EXTCONF_OTHER_SOURCES"       // relay: JSON array of {"source","value"} the assistant also holds for the item
	// invoke: a JSON array of skill_ids to invoke in turn at each card, in this one process (with whatever cache
	// the client keeps); the reply is the first refusal, else the last completion. EXTCONF_SKILL is its first.
	EnvSkills = "EXTCONF_SKILLS"
	// invoke, for a client offering the compile_budget hook: its compilation time budget for this invocation in
	// nanoseconds (a decimal integer), in place of its own.
	EnvCompileBudget = "EXTCONF_COMPILE_BUDGET_NS"
	// invoke, for a client offering the schema_copy hook: the path of a Skill Interface Schema copy to load (and
	// integrity-check, as its packaged one) in place of its packaged copy.
	EnvSchemaCopy = "EXTCONF_SCHEMA_COPY"
)

// Hooks a client may offer in its version reply (hooks): optional ways for the harness to reach a mechanism inside
// the client. A client that offers none is not graded on the rows that need them (not-tested, naming the hook).
const (
	HookCompileBudget = "compile_budget" // it takes its compilation time budget from EXTCONF_COMPILE_BUDGET_NS
	HookSchemaCopy    = "schema_copy"    // it loads its Skill Interface Schema copy from EXTCONF_SCHEMA_COPY
)

// Actions of the contract.
const (
	ActionInvoke      = "invoke"
	ActionInvokeBase  = "invoke-base" // a base A2A invocation of an agent that does not declare the schema-interface extension
	ActionVerifyTerms = "verify-terms"
	ActionInterview   = "interview"
	ActionRelay       = "relay"
	ActionDelegate    = "delegate"
	ActionVersion     = "version"
)

// Outcomes a client reports.
const (
	OutcomeCompleted = "completed"
	OutcomeRefused   = "refused"
)

// ReasonUnsupportedAction is the reason a client gives when it is asked an action it does not know (one added to
// the contract after it was written): the checks that need its answer read not-tested.
const ReasonUnsupportedAction = "unsupported_action"

// Reply is the one JSON line the client prints on stdout. For invoke, reason is the condition code when the
// client refuses (e.g. interface_invalid), output the domain output it delivers when it completes.
type Reply struct {
	Outcome string          `json:"outcome"`
	Reason  string          `json:"reason,omitempty"`
	Output  json.RawMessage `json:"output,omitempty"`
	// verify-terms: the digests (as the card's entries carry them) of the proposals the client accepts as the
	// agent's terms; completed when it accepts at least one, refused ("terms_not_stated") when none.
	Verified []string        `json:"verified,omitempty"`
	Report   json.RawMessage `json:"report,omitempty"`
	// invoke: whether the condition was detected by the client itself (local), the remote task when there is one
	// (its id and TASK_STATE_*), and the details[] entries it reports for input_invalid / output_invalid.
	Local   bool     `json:"local,omitempty"`
	Task    *TaskRef `json:"task,omitempty"`
	Details []Detail `json:"details,omitempty"`
	// delegate: the delegation hop as the orchestrator records it.
	Correlation *Correlation `json:"correlation,omitempty"`
	// interview: the verifier's recorded result.
	Interview *InterviewResult `json:"interview,omitempty"`
	// relay: what the assistant tells the person, in its words.
	Message string `json:"message,omitempty"`
	// version action only. Actions are the contract's actions the client implements: the scenarios of any other
	// action are not run and their rows read inapplicable ("the client does not implement …"); absent, the client
	// is taken to implement every action and is graded on every scenario.
	Name    string   `json:"name,omitempty"`
	Version string   `json:"version,omitempty"`
	Actions []string `json:"actions,omitempty"`
	// version action only: the resource limits of the client's own validator (schema-interface §12 "Resource
	// limits"). Absent, the limit rows read not-tested with a reason naming what to declare.
	Limits *Limits `json:"limits,omitempty"`
	// version action only: the hooks (Hook*) the client offers. Absent, the rows that need one read not-tested.
	Hooks []string `json:"hooks,omitempty"`
	// invoke-base: what the client attached to and claims for a base A2A invocation of an agent without the
	// schema-interface extension. Absent, the rows about it (schema-interface §9 rule 14) read not-tested.
	Governance *Governance `json:"governance,omitempty"`
	// verify-terms with EXTCONF_CARD_URLS: how the client ranks and filters those agents by their terms. Absent,
	// the ranking row (terms §7 rule 3) reads not-tested.
	Ranking *Ranking `json:"ranking,omitempty"`
	// verify-terms: what the client would show a person about the card's terms (its terms view, as plain text:
	// lines, clause by clause, each with its grade). Absent, the renderer rows (terms §7 rules 1, 2, 4) read
	// not-tested.
	Display *string `json:"display,omitempty"`
}

// Ranking is a terms client's catalog view of several agents (terms §7 rule 3: a consumer "MUST NOT rank or filter
// agents as if absence were a negative assertion"), each agent named by its card URL as handed.
type Ranking struct {
	ByPrice   []string `json:"by_price"`             // the agents it ranks by price, cheapest first
	NotStated []string `json:"not_stated,omitempty"` // the agents it keeps apart as terms not stated
	NoCharge  []string `json:"no_charge"`            // the agents its "no charge" filter matches
}

// Governance is what a client attaches to and claims for a base A2A invocation (schema-interface §9 rule 14: "The
// caller MUST NOT infer or prescribe the remote skill's domain schemas from skill descriptions or media types alone,
// and MUST NOT claim schema-interface conformance or schema-governed compatibility for such an invocation").
type Governance struct {
	// SchemaGoverned: the client presents the invocation as schema-interface conformant or schema-governed.
	SchemaGoverned bool `json:"schema_governed"`
	// Schemas: every schema, validator schema or Schema Reference the client derived for or attached to the
	// invocation (none: empty or absent).
	Schemas []json.RawMessage `json:"schemas,omitempty"`
}

// Limits are the resource limits a client declares for its own validator (schema-interface §12: "An
// implementation MUST enforce limits on schema size, nesting, reference depth, reference cycles, compilation time,
// payload size, and cache consumption"; version 1.0 defines no numeric minima, so the harness can only test a limit
// the client names). A member absent or 0 is a limit the client does not declare; its row reads not-tested. The
// harness serves a document well beyond each declared limit (and, as the positive control, one well within it) and
// grades that the client refuses it with resource_limit_exceeded before any domain-skill request; a client whose
// limits are larger declares larger numbers and is served larger documents, never failed for them.
type Limits struct {
	// SchemaBytes: the size of one embedded schema (a Schema Reference's resolution.schema value) in bytes as
	// received.
	SchemaBytes int `json:"schema_bytes,omitempty"`
	// Nesting: the object/array nesting depth of one embedded schema, counted from the schema's root.
	Nesting int `json:"nesting,omitempty"`
	// ReferenceDepth: consecutive $ref/$dynamicRef hops applied at one instance location.
	ReferenceDepth int `json:"reference_depth,omitempty"`
	// ReferenceCycles: the client refuses a schema whose $refs form a cycle that consumes no part of the
	// instance.
	ReferenceCycles bool `json:"reference_cycles,omitempty"`
	// PayloadBytes: one describe_skill or domain-skill response body, in bytes.
	PayloadBytes int `json:"payload_bytes,omitempty"`
	// CacheEntries: the most validated Skill Interface Documents the client keeps at once (its document cache);
	// graded through EXTCONF_SKILLS (one process invoking more distinct skills than that, twice over).
	CacheEntries int `json:"cache_entries,omitempty"`
	// Recorded in the identity; not graded: the compilation budget is graded through the compile_budget hook (the
	// value is the client's choice), and how many documents a byte budget holds depends on how the client counts.
	CompileTimeMS int   `json:"compile_time_ms,omitempty"`
	CacheBytes    int64 `json:"cache_bytes,omitempty"`
}

// Correlation is one delegation hop as an orchestrator records it (schema-interface §6): each side's issuing
// endpoint, task id and skill, in separately named fields.
type Correlation struct {
	Upstream   Hop `json:"upstream"`
	Downstream Hop `json:"downstream"`
}

// Hop is one side of a delegation hop.
type Hop struct {
	Endpoint string `json:"endpoint"`
	TaskID   string `json:"task_id"`
	SkillID  string `json:"skill_id"`
}

// TaskRef is a remote task as the client reports it.
type TaskRef struct {
	ID    string `json:"id"`
	State string `json:"state,omitempty"`
}

// Detail is one details[] entry of an input_invalid / output_invalid condition (instance_path: RFC 6901).
type Detail struct {
	InstancePath string `json:"instance_path"`
	Keyword      string `json:"keyword,omitempty"`
	Message      string `json:"message,omitempty"`
}

// InterviewResult is what an interview verifier records (interview §8 step 5) and shows.
type InterviewResult struct {
	// Outcome: consistent | inconsistent | not-implemented (the card does not declare the extension) |
	// unverified-card | incomplete.
	Outcome  string           `json:"outcome"`
	Reason   string           `json:"reason,omitempty"` // why, in the verifier's words (e.g. for not-implemented)
	RunBy    *RunBy           `json:"runBy,omitempty"`  // who ran it, as recorded
	Standing string           `json:"standing"`         // claim | evidence, as recorded
	Probes   []InterviewProbe `json:"probes,omitempty"` // the closure probes (§8 step 4)
	Passed   int              `json:"passed"`
	Failed   int              `json:"failed"`
	Display  string           `json:"display,omitempty"` // what the verifier shows a person
}

// RunBy is who ran an interview, and their tier.
type RunBy struct {
	Name string `json:"name"`
	Tier string `json:"tier"`
}

// InterviewProbe is one closure probe as the verifier counted it.
type InterviewProbe struct {
	Name      string `json:"name"`
	Correct   bool   `json:"correct"`   // the agent's response was the standard refusal
	CountedAs string `json:"countedAs"` // pass | fail
}

// Identity is who the client under test says it is (the version action), and how it was started.
type Identity struct {
	Command string   `json:"command"`
	Name    string   `json:"name,omitempty"`
	Version string   `json:"version,omitempty"`
	Actions []string `json:"actions,omitempty"` // what it declares it implements; empty: every action
	Limits  *Limits  `json:"limits,omitempty"`  // its validator's limits, as declared
	Hooks   []string `json:"hooks,omitempty"`   // the hooks it offers
	Error   string   `json:"error,omitempty"`
}

// Offers reports whether the client declares the hook.
func (id Identity) Offers(hook string) bool {
	for _, h := range id.Hooks {
		if h == hook {
			return true
		}
	}
	return false
}

// Implements reports whether the client declares the action (a client that declares none implements every one).
func (id Identity) Implements(action string) bool {
	if len(id.Actions) == 0 {
		return true
	}
	for _, a := range id.Actions {
		if a == action {
			return true
		}
	}
	return false
}

const maxStdout = 1 << 20

// Invocation is one run of the client command: what it printed and how it ended.
type Invocation struct {
	Reply    *Reply `json:"reply,omitempty"`
	ExitCode int    `json:"exitCode"`
	Stderr   string `json:"stderr,omitempty"` // the tail
	Error    string `json:"error,omitempty"`  // no reply line, a timeout, a start failure
	Duration string `json:"duration"`
}

// Driver runs the client command under the contract.
type Driver struct {
	Command string        // run with sh -c
	Dir     string        // working directory ("" the current one)
	Timeout time.Duration // per invocation
}

// Run starts the command once with env added to the harness's environment and reads its reply line.
func (d Driver) Run(ctx context.Context, env map[string]string) Invocation {
	start := time.Now()
	to := d.Timeout
	if to <= 0 {
		to = 60 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, to)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", d.Command)
	cmd.Dir = d.Dir
	cmd.Env = os.Environ()
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Env = append(cmd.Env, fmt.Sprintf("%s=%d", EnvTimeoutSecs, int(to.Seconds())))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) } // the whole group we started
	cmd.WaitDelay = 2 * time.Second
	var out, errb limited
	out.n, errb.n = maxStdout, 64<<10
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	inv := Invocation{ExitCode: cmd.ProcessState.ExitCode(), Stderr: tail(errb.String(), 2000), Duration: time.Since(start).Round(time.Millisecond).String()}
	if ctx.Err() != nil {
		inv.Error = fmt.Sprintf("the client did not finish within %s", to)
		return inv
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		inv.Error = "the client could not be started: " + err.Error()
		return inv
	}
	r, perr := lastReply(out.Bytes())
	if perr != nil {
		inv.Error = perr.Error()
		return inv
	}
	inv.Reply = r
	return inv
}

// lastReply is the last non-empty stdout line, which must be one JSON object.
func lastReply(b []byte) (*Reply, error) {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	if last == "" {
		return nil, errors.New("the client printed no reply line on stdout")
	}
	var r Reply
	dec := json.NewDecoder(strings.NewReader(last))
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("the reply line is not a JSON object: %v: %s", err, tail(last, 200))
	}
	return &r, nil
}

type limited struct {
	bytes.Buffer
	n     int
	trunc bool
}

func (l *limited) Write(p []byte) (int, error) {
	if room := l.n - l.Len(); room > 0 {
		l.Buffer.Write(p[:min(len(p), room)])
	} else {
		l.trunc = true
	}
	return len(p), nil
}

var _ io.Writer = (*limited)(nil)

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
