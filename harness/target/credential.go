package target

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
)

// Credential is a named credential of the target configuration ("credentials": {"tenantA": {…}}). Documents refer
// to it by name from their own section; it is sent only to the documents that name it.
type Credential struct {
	Header string `json:"header"` // e.g. "Authorization"
	Value  Secret `json:"value"`  // "Bearer …", or {"fromEnv": "VAR"}
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

// Secret is a credential value: a literal string, or {"fromEnv": "VAR"} read from the environment when the
// configuration is loaded (so the file itself need hold no secret).
type Secret struct {
	Literal string
	FromEnv string
}

// UnmarshalJSON accepts a string or exactly {"fromEnv": "<name>"}.
func (s *Secret) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		*s = Secret{}
		return json.Unmarshal(b, &s.Literal)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return errors.New(`want a string or {"fromEnv": "VAR"}`)
	}
	for k := range m {
		if k != "fromEnv" {
			return fmt.Errorf(`unknown member %q (want a string or {"fromEnv": "VAR"})`, k)
		}
	}
	var name string
	if err := json.Unmarshal(m["fromEnv"], &name); err != nil || name == "" {
		return errors.New(`fromEnv: want the name of an environment variable`)
	}
	*s = Secret{FromEnv: name}
	return nil
}

// MarshalJSON writes the form it was read in (never the environment's value).
func (s Secret) MarshalJSON() ([]byte, error) {
	if s.FromEnv != "" {
		return json.Marshal(map[string]string{"fromEnv": s.FromEnv})
	}
	return json.Marshal(s.Literal)
}

// JSONSchema describes the two forms (for the generated configuration schema).
func (Secret) JSONSchema() map[string]any {
	return map[string]any{"oneOf": []any{
		map[string]any{"type": "string"},
		map[string]any{"type": "object", "required": []any{"fromEnv"}, "additionalProperties": false,
			"properties": map[string]any{"fromEnv": map[string]any{"type": "string", "minLength": 1}}},
	}}
}

// Resolve returns the secret's value; a named environment variable that is unset is an error.
func (s Secret) Resolve() (string, error) {
	if s.FromEnv == "" {
		return s.Literal, nil
	}
	v, ok := os.LookupEnv(s.FromEnv)
	if !ok || v == "" {
		return "", fmt.Errorf("environment variable %s is not set", s.FromEnv)
	}
	return v, nil
}

// Principal resolves the credential into the principal a suite sends.
func (c Credential) Principal() (Principal, error) {
	v, err := c.Value.Resolve()
	if err != nil {
		return Principal{}, err
	}
	return Principal{Header: c.Header, Value: v, Tenant: c.Tenant, Workspace: c.Workspace, ID: c.ID}, nil
}

// Credential resolves the named credential; an unknown name or an unset variable is an error naming path, the
// member that referred to it.
func (c Config) Credential(name, path string) (Principal, error) {
	cr, ok := c.Credentials[name]
	if !ok {
		names := make([]string, 0, len(c.Credentials))
		for n := range c.Credentials {
			names = append(names, n)
		}
		sort.Strings(names)
		return Principal{}, fmt.Errorf("%s: no credential named %q (credentials has %v)", path, name, names)
	}
	if cr.Header == "" {
		return Principal{}, fmt.Errorf("$.credentials.%s.header is empty", name)
	}
	p, err := cr.Principal()
	if err != nil {
		return Principal{}, fmt.Errorf("$.credentials.%s.value: %w", name, err)
	}
	if err := checkHeader("$.credentials."+name, p.Header, p.Value); err != nil { // a fromEnv value too
		return Principal{}, err
	}
	return p, nil
}

// PrincipalOf returns the principal name ("A", "B") of document doc: documents.<doc>.principals (written as
// "<doc>.<name>") wins over the legacy, shared principals.<name>.
func (c Config) PrincipalOf(doc, name string) (Principal, bool) {
	if p, ok := c.Principals[doc+"."+name]; ok && p.Header != "" {
		return p, true
	}
	p, ok := c.Principals[name]
	return p, ok && p.Header != ""
}

// SetPrincipal resolves credential cred and stores it as principal key (the members suites read), naming path on
// error.
func (c *Config) SetPrincipal(key, cred, path string) error {
	p, err := c.Credential(cred, path)
	if err != nil {
		return err
	}
	if c.Principals == nil {
		c.Principals = map[string]Principal{}
	}
	c.Principals[key] = p
	return nil
}

// AddRequests merges request texts per skill id, refusing two sections that disagree on one skill.
func (c *Config) AddRequests(path string, reqs map[string][]string) error {
	for k, v := range reqs {
		if c.Requests == nil {
			c.Requests = map[string][]string{}
		}
		if old, ok := c.Requests[k]; ok && fmt.Sprint(old) != fmt.Sprint(v) {
			return fmt.Errorf("%s.%s: another section gives other requests for skill %q", path, k, k)
		}
		c.Requests[k] = v
	}
	return nil
}

// SetAgent maps a role to a card URL for a document's extra agent.
func (c *Config) SetAgent(role, u string) {
	if u == "" {
		return
	}
	if c.Agents == nil {
		c.Agents = map[string]string{}
	}
	c.Agents[role] = u
}
