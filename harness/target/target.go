package target

import (
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/extconf/extconf/harness/strictjson"
)

// Kinds of target.
const (
	KindMock      = "mock"
	KindURL       = "url"
	KindContainer = "container"
)

// Target is a reachable agent (or set of agents, for the reference mocks).
type Target struct {
	Kind string
	// Agents maps a role to an agent's card URL. Roles are document ids ("terms", "interview", …) and extra roles
	// a suite may ask for ("interview.noterms"). A URL target maps every role to its one card URL.
	Agents  map[string]string
	RootCAs *x509.CertPool // trusted CAs for https (nil: the system pool)
	Config  Config
	// Announce returns what the target says of itself in the configuration file's shape (credentials, document
	// sections): the reference agents' operator knowledge, printed by `runsuite mock`; nil when it says nothing.
	Announce func() (*Config, error)
	ImageID  string   // container targets: the image id that ran
	Sabotage []string // mock targets: the toggles switched on
	// Close stops whatever the target started; nil when nothing was started.
	Close func() error
	// Blocked, when set, says why the target could not be reached at all (e.g. no container engine): every
	// selected row of the run is then blocked with this reason, never run and never passed.
	Blocked string
	// Logs returns what the target printed (container targets: stdout and stderr); nil when there is nothing.
	Logs func() []byte
	// Resolved, for a URL target given as a bare origin, says how its card URL was found (A2A's well-known rule).
	Resolved string
}

// CardURL returns the card URL for role, falling back to the target's default agent ("" role).
func (t *Target) CardURL(role string) (string, bool) {
	if u, ok := t.Agents[role]; ok {
		return u, true
	}
	if i := strings.IndexByte(role, '.'); i > 0 {
		return "", false // an extra role is never guessed: its specs are blocked without it
	}
	u, ok := t.Agents[""]
	return u, ok
}

// Principal is a credential the operator provides for one caller.
type Principal struct {
	Header string `json:"header"` // e.g. "Authorization"
	Value  string `json:"value"`  // e.g. "Bearer …"
	// Tenant is the caller's tenant identifier as the host knows it (agent-cards: a2aTenant must never encode
	// it; AC-B.2b, AC-V2.2a).
	Tenant string `json:"tenant,omitempty"`
	// Workspace is the caller's workspace identifier as the host knows it (agent-cards: AC-B.2c, AC-V2.2b); on a
	// host without workspaces, declare documents.agent-cards.absent["credential.workspace"].
	Workspace string `json:"workspace,omitempty"`
	// ID is the caller's own principal identifier as the host knows it (agent-cards: AC-B.2d, AC-V2.2c; terms:
	// the Agent SoW party the caller stands for); where the host shows none, declare
	// documents.agent-cards.absent["credential.id"].
	ID string `json:"id,omitempty"`
}

// ActingFor says how an assistant asserts that it acts for a named person (On Request OR-5.5 leaves it undefined).
// Every member is a template: "<person>" is replaced by the person's name. Members may be combined. With none set,
// the On Request suite uses its default, Message.metadata[<extension URI>] = {"actingFor": {"name": "<person>"}}.
type ActingFor struct {
	// Message is the user Message's metadata (A2A's place for per-message extension data), e.g.
	// {"https://agent-capability.org/ext/on-request/v1": {"actingFor": {"name": "<person>"}}}.
	Message json.RawMessage `json:"message,omitempty"`
	// Metadata is SendMessage params.metadata when the harness speaks as an assistant acting for a person.
	Metadata json.RawMessage `json:"metadata,omitempty"`
	Header   string          `json:"header,omitempty"` // alternatively a request header…
	Value    string          `json:"value,omitempty"`  // …with this value
	// Credential: the assertion is the calling assistant's own credential (Principals; the probe's calling
	// assistant, else Principal) whose value is a template with "<person>".
	Credential bool `json:"credential,omitempty"`
	// Principal names the calling assistant whose credential carries the assertion (with credential).
	Principal string `json:"principal,omitempty"`
}

// Config is what the documents leave to the operator. Every member is optional; a spec that needs a missing one
// is blocked with the reason, never passed.
//
// The common members are the target's (agents for document roles, caFile, trustedKeys, limits, provider,
// container settings) and the named credentials; everything one document needs lives in its typed section under
// documents.<id>, declared by the document (harness.Document.Input) and decoded strictly by the engine
// (harness.PrepareConfig). The members marked "legacy" are the pre-#22 places of document input: they keep
// working for one release with a warning naming the new place (LegacyWarnings).
type Config struct {
	Agents map[string]string `json:"agents,omitempty"` // role → card URL, overriding the target's
	// Credentials are named credentials; document sections refer to them by name and only those documents send them.
	Credentials map[string]Credential `json:"credentials,omitempty"`
	// Documents holds one section per document id, each decoded into the document's own input type.
	Documents map[string]json.RawMessage `json:"documents,omitempty"`

	Principals  map[string]Principal `json:"principals,omitempty" schema:"deprecated"` // legacy: documents.<id>.principals + credentials
	Inventory   string               `json:"inventory,omitempty" schema:"deprecated"`  // legacy: documents.agent-cards.inventory
	Discovery   string               `json:"discovery,omitempty" schema:"deprecated"`  // legacy: documents.agent-cards.discovery
	Requests    map[string][]string  `json:"requests,omitempty" schema:"deprecated"`   // legacy: documents.<id>.requests and sections
	ActingFor   *ActingFor           `json:"actingFor,omitempty" schema:"deprecated"`  // legacy: documents.on-request.actingFor
	CAFile      string               `json:"caFile,omitempty"`                         // PEM bundle trusted for https
	TrustedKeys json.RawMessage      `json:"trustedKeys,omitempty"`                    // a JWK Set for card and document signatures
	Provider    string               `json:"provider,omitempty"`                       // the agent's provider organization, if known
	Limits      json.RawMessage      `json:"limits,omitempty"`                         // overrides of a2a.Limits (see docs/limits.md)
	// Container targets.
	Port     string   `json:"port,omitempty"`     // container port serving the card, e.g. "8443/tcp"
	CardPath string   `json:"cardPath,omitempty"` // default /.well-known/agent-card.json
	Scheme   string   `json:"scheme,omitempty"`   // http or https
	Cmd      []string `json:"cmd,omitempty"`      // the container's command (arguments to the image's entrypoint)

	// Inputs are the decoded document sections (document id → the pointer its Input returned), set by
	// harness.PrepareConfig; suites read them with Env.Input.
	Inputs map[string]any `json:"-"`
}

// LoadConfig reads a target configuration file (JSON). Unknown members are an error: a misspelt credential must
// not silently block rows.
func LoadConfig(path string) (Config, error) {
	var c Config
	b, err := readFileCapped(path, "target config", MaxConfigBytes)
	if err != nil {
		return c, err
	}
	// Exact member names, no duplicates, nothing after the value: a misspelt or doubled member must be an
	// error naming it, never a silently different run.
	if err := strictjson.Decode(b, &c); err != nil {
		return c, fmt.Errorf("target config %s: %w", path, err)
	}
	if c.CAFile != "" {
		if _, err := c.CAPool(); err != nil {
			return c, err
		}
	}
	for name, cr := range c.Credentials {
		if err := checkHeader("$.credentials."+name, cr.Header, cr.Value.Literal); err != nil {
			return c, fmt.Errorf("target config %s: %w", path, err)
		}
	}
	for name, p := range c.Principals {
		if err := checkHeader("$.principals."+name, p.Header, p.Value); err != nil {
			return c, fmt.Errorf("target config %s: %w", path, err)
		}
	}
	return c, nil
}

// CAPool returns the pool of the configured CA file, or nil when none is configured.
func (c Config) CAPool() (*x509.CertPool, error) {
	if c.CAFile == "" {
		return nil, nil
	}
	pem, err := readFileCapped(c.CAFile, "caFile", MaxCAFileBytes)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, errors.New("caFile " + c.CAFile + ": no PEM certificate")
	}
	return pool, nil
}

// WellKnownCardPath is where A2A puts an agent's card on its origin.
const WellKnownCardPath = "/.well-known/agent-card.json"

// URL makes a target for one running agent. A URL with a path other than "/" is the card URL, used as given; a bare
// origin (or path "/") is resolved by A2A's well-known rule and Target.Resolved says so.
func URL(cardURL string, cfg Config) (*Target, error) {
	if !strings.HasPrefix(cardURL, "http://") && !strings.HasPrefix(cardURL, "https://") {
		return nil, fmt.Errorf("target URL %q: want http:// or https://", cardURL)
	}
	// A URL with a path is the card URL as given; a bare origin (or path "/") is resolved by A2A's well-known rule.
	u, err := url.Parse(cardURL)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("target URL %q: not an absolute http(s) URL", cardURL)
	}
	resolved := ""
	if u.Path == "" || u.Path == "/" {
		u.Path, u.RawPath = WellKnownCardPath, ""
		resolved = fmt.Sprintf("%s is an origin: its card is read from %s (A2A's well-known location)", cardURL, u.String())
		cardURL = u.String()
	}
	pool, err := cfg.CAPool()
	if err != nil {
		return nil, err
	}
	t := &Target{Kind: KindURL, Agents: map[string]string{"": cardURL}, RootCAs: pool, Config: cfg, Resolved: resolved}
	for role, u := range cfg.Agents {
		t.Agents[role] = u
	}
	return t, nil
}
