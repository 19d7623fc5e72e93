package skiface

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/sabotage"
)

// Client is the harness acting as a schema-interface client agent. It talks to targets only through the
// recording A2A client and consults the client-side toggles in Sabotage. Safe for sequential use; one Client
// may run many procedures (its cache and task registry persist across them).
type Client struct {
	A2A      *a2a.Client
	Sabotage sabotage.Faults
	Limits   Limits
	// Binding forces a protocol binding (a2a.BindingJSONRPC or a2a.BindingHTTPJSON); "" takes the card's first
	// interface this client speaks.
	Binding string
	// TrustedSchema replaces the packaged Skill Interface Schema copy (the integrity check runs on it).
	TrustedSchema []byte
	// NoCache keeps no validated document: describe_skill before every task (a client without a document cache,
	// as the contract's tests need one).
	NoCache bool
	Policy  Policy
	// Handlers are optional domain-aware checks keyed by the stable schema_uri of the schema an outgoing instance
	// is validated against; a handler's error rejects the invocation locally with constraint_rejected.
	Handlers map[string]func(instance json.RawMessage) error
	// Fetch is used only when the retrieval toggle is on (a deliberately broken validator): it must refuse
	// anything but loopback http(s) before dialing.
	Fetch func(ctx context.Context, u string) ([]byte, error)

	mu    sync.Mutex
	cache *cache
	tasks map[TaskKey]*TaskRecord
	hops  []Correlation
}

// Policy is the client's local invoke permission: it runs for every invocation whatever a document's authority
// member says (authority is descriptive, never a permission). nil members permit.
type Policy struct {
	Permit  func(skillID string, args json.RawMessage) error
	Approve func(skillID string, args json.RawMessage) error
}

// Request is one domain-skill invocation asked of the client.
type Request struct {
	CardURL   string
	SkillID   string
	Version   string          // the skill_version the caller expects; "" takes the advertised one
	Arguments json.RawMessage // the complete domain input
	Stream    bool            // SendStreamingMessage instead of SendMessage
	Poll      bool            // after completion, retrieve the Task with GetTask and use that copy
	Upstream  *TaskKey        // set when this invocation is a delegation hop of an upstream task
	// trusted marks a payload the (sabotaged) composition treats as already validated
	trusted bool
}

// TaskKey identifies a task: protocol task ids are scoped to the endpoint that issued them.
type TaskKey struct{ Endpoint, ID string }

// TaskRecord is a task the client created.
type TaskRecord struct {
	Key     TaskKey
	Binding string
	SkillID string
	State   string
	Task    *a2a.Task
	Updated time.Time
}

// Step is one entry of the procedure's diagnostics.
type Step struct {
	Name     string
	OK       bool
	Detail   string
	Exchange *a2a.Exchange
}

// Record is a received supporting record.
type Record struct {
	Kind, ArtifactID string
	Value            json.RawMessage
}

// Interface is a retrieved, validated Skill Interface Document bound to its target.
type Interface struct {
	Target, SkillID, SkillVersion, Digest string
	Verified                              *Verified
	FromCache                             bool
}

// Result is what one procedure produced.
type Result struct {
	Target   string // the agent identity: its card URL
	Endpoint string // the interface URL used
	Binding  string
	SkillID  string
	// the binding selected from the card and validated
	SkillVersion, InterfaceDigest string
	Interface                     *Interface
	Task                          *TaskKey // nil when no remote task exists (a local condition before delegation)
	RemoteState                   string
	RemoteCode                    string
	Output                        json.RawMessage // the validated domain output; nil when unusable or absent
	Records                       []Record
	Err                           *Error // the condition that stopped the procedure (local or reported by the agent)
	Local                         bool   // Err was detected by this client
	SchemaGoverned                bool
	InferredSchema                json.RawMessage // a schema the client derived on its own (never, unless sabotaged)
	Steps                         []Step
	Exchanges                     []*a2a.Exchange
}

func (r *Result) step(name string, ok bool, ex *a2a.Exchange, format string, a ...any) {
	r.Steps = append(r.Steps, Step{Name: name, OK: ok, Detail: fmt.Sprintf(format, a...), Exchange: ex})
	r.addExchange(ex)
}

func (r *Result) addExchange(ex *a2a.Exchange) {
	if ex == nil {
		return
	}
	for _, x := range r.Exchanges {
		if x == ex {
			return
		}
	}
	r.Exchanges = append(r.Exchanges, ex)
}

func (c *Client) on(id sabotage.ID) bool { return sabotage.From(c.Sabotage).On(id) }

func (c *Client) lim() Limits { return c.Limits.withDefaults() }

// nesting is the document nesting limit in force (0: none, only when the nesting toggle is on).
func (c *Client) nesting() int {
	if c.on(sabotage.SIClientNoLimitNesting) {
		return 0
	}
	return c.lim().MaxNesting
}

// stop records a local condition on the result and returns it.
func (c *Client) stop(res *Result, e *Error) (*Result, error) {
	if c.on(sabotage.SIClientErrorWithoutCode) {
		e.Code = "" // prose only
	}
	if e.Code == ResourceLimitExceeded && c.on(sabotage.SIClientLimitWrongCode) {
		e.Code = InterfaceInvalid
	}
	res.Err, res.Local = e, true
	if c.on(sabotage.SIClientFakeRemoteTask) {
		res.Task = &TaskKey{Endpoint: res.Endpoint, ID: "local-" + newID()}
		res.RemoteState = a2a.StateFailed
	}
	res.step(e.Step, false, nil, "%s", e.Error())
	return res, e
}

// ---- step 1 and 2

// ---- step 3 to 6

// ---- A2A plumbing

// ---- the whole procedure

// ---- task registry and delegation hops

// ---- agents that do not conform
