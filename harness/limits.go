package harness

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/strictjson"
	"github.com/extconf/extconf/harness/target"
)

// LimitsConfig is every bound of a run in one place: the target configuration's "limits" member. docs/limits.md
// lists each member with its default.
//
//	"limits": {
//	  "connectTimeout": "5s", "callTimeout": "10s", "streamTimeout": "15s",
//	  "maxBody": 8388608, "maxSSEEvent": 1048576, "maxSSEEvents": 10000, "maxRedirects": 5,
//	  "maxJSONDepth": 128, "maxCardSkills": 1000,
//	  "allowOrigins": ["https://proposals.example.com"],
//	  "schemaInterface": {…}   // a document's own limits: an object member a Document claims (LimitsMember)
//	}
type LimitsConfig struct {
	A2A a2a.Limits // the client's bounds on every exchange; zero fields take a2a.DefaultLimits
	// Documents holds the object-valued members a document claims as its own limits (e.g. "schemaInterface"),
	// undecoded: the engine knows no document; CheckConfig has the claiming document decode each strictly.
	Documents map[string]json.RawMessage
	// AllowOrigins are origins ("https://host[:port]") besides the target's own that URLs read from target data
	// (interface URLs, proposal URLs, jku, …) may reach. Off-origin loopback is the harness's own host and stays
	// allowed; everything else off the target's origins is refused before dialing (reach.go).
	AllowOrigins []string
	// RunTimeout bounds a whole run (limits.runTimeout; DefaultRunTimeout when absent): past it the rows not
	// finished read not-tested, as for an interruption, so a target that answers slowly everywhere still ends.
	RunTimeout time.Duration
}

// DefaultRunTimeout is the run deadline when the configuration sets none.
const DefaultRunTimeout = 30 * time.Minute

type limitsJSON struct {
	ConnectTimeout *strictjson.Duration `json:"connectTimeout"`
	CallTimeout    *strictjson.Duration `json:"callTimeout"`
	StreamTimeout  *strictjson.Duration `json:"streamTimeout"`
	MaxBody        *int64               `json:"maxBody"`
	MaxSSEEvent    *int                 `json:"maxSSEEvent"`
	MaxSSEEvents   *int                 `json:"maxSSEEvents"`
	MaxRedirects   *int                 `json:"maxRedirects"`
	MaxJSONDepth   *int                 `json:"maxJSONDepth"`
	MaxCardSkills  *int                 `json:"maxCardSkills"`
	MaxRunBytes    *int64               `json:"maxRunBytes"`
	MaxHeaderBytes *int64               `json:"maxHeaderBytes"`
	AllowOrigins   []string             `json:"allowOrigins"`
	RunTimeout     *strictjson.Duration `json:"runTimeout"`
}

// engineLimitMembers are the members limitsJSON decodes; every other member must be an object a document claims.
var engineLimitMembers = map[string]bool{"connectTimeout": true, "callTimeout": true, "streamTimeout": true,
	"maxBody": true, "maxSSEEvent": true, "maxSSEEvents": true, "maxRedirects": true, "maxJSONDepth": true,
	"maxCardSkills": true, "allowOrigins": true, "maxRunBytes": true, "runTimeout": true, "maxHeaderBytes": true}

// ParseLimits reads a "limits" member: members present override the defaults, absent ones keep them. Unknown
// members, non-positive values and malformed origins are errors (a misspelt limit must not silently not apply).
// An empty raw value gives the defaults.
func ParseLimits(raw json.RawMessage) (LimitsConfig, error) {
	out := LimitsConfig{A2A: a2a.DefaultLimits(), RunTimeout: DefaultRunTimeout}
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return out, nil
	}
	var members map[string]json.RawMessage
	if err := strictjson.Decode(raw, &members); err != nil { // duplicates and trailing data refused by name
		return out, fmt.Errorf("limits: %w", err)
	}
	var errs []error
	engine := map[string]json.RawMessage{}
	for k, v := range members {
		switch {
		case engineLimitMembers[k]:
			engine[k] = v
		case bytes.HasPrefix(bytes.TrimSpace(v), []byte("{")):
			if out.Documents == nil {
				out.Documents = map[string]json.RawMessage{}
			}
			out.Documents[k] = v
		default:
			errs = append(errs, fmt.Errorf("limits: unknown member %q", k))
		}
	}
	rest, _ := json.Marshal(engine)
	var j limitsJSON
	dec := json.NewDecoder(bytes.NewReader(rest))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return out, fmt.Errorf("limits: %w", err)
	}
	posInt := func(name string, p *int, dst *int) { strictjson.Positive(&errs, "limits."+name, p, dst) }
	posInt64 := func(name string, p *int64, dst *int64) { strictjson.Positive(&errs, "limits."+name, p, dst) }
	dur := func(p *strictjson.Duration, dst *time.Duration) {
		if p != nil {
			*dst = time.Duration(*p)
		}
	}
	a := &out.A2A
	dur(j.RunTimeout, &out.RunTimeout)
	dur(j.ConnectTimeout, &a.ConnectTimeout)
	dur(j.CallTimeout, &a.CallTimeout)
	dur(j.StreamTimeout, &a.StreamTimeout)
	posInt64("maxBody", j.MaxBody, &a.MaxBody)
	posInt("maxSSEEvent", j.MaxSSEEvent, &a.MaxSSEEvent)
	posInt("maxSSEEvents", j.MaxSSEEvents, &a.MaxSSEEvents)
	posInt("maxRedirects", j.MaxRedirects, &a.MaxRedirects)
	posInt("maxJSONDepth", j.MaxJSONDepth, &a.MaxJSONDepth)
	posInt("maxCardSkills", j.MaxCardSkills, &a.MaxCardSkills)
	posInt64("maxRunBytes", j.MaxRunBytes, &a.MaxRunBytes)
	posInt64("maxHeaderBytes", j.MaxHeaderBytes, &a.MaxHeaderBytes)
	for _, o := range j.AllowOrigins {
		n, err := normalOrigin(o)
		if err != nil {
			errs = append(errs, fmt.Errorf("limits.allowOrigins: %w", err))
			continue
		}
		out.AllowOrigins = append(out.AllowOrigins, n)
	}
	return out, errors.Join(errs...)
}

// LimitsOf returns the client limits a target configuration asks for (for Options.Limits): nil when it sets
// none, so the run keeps the defaults.
func LimitsOf(cfg target.Config) (*a2a.Limits, error) {
	if len(bytes.TrimSpace(cfg.Limits)) == 0 {
		return nil, nil
	}
	l, err := ParseLimits(cfg.Limits)
	if err != nil {
		return nil, err
	}
	return &l.A2A, nil
}

// DocumentLimits is the run's limits member a document claims (e.g. "schemaInterface"), undecoded; nil when the
// configuration sets none. The document decodes it (CheckConfig has already refused a malformed one).
func (e *Env) DocumentLimits(member string) json.RawMessage {
	l, err := ParseLimits(e.Target.Config.Limits)
	if err != nil {
		return nil
	}
	return l.Documents[member]
}

// normalOrigin returns "scheme://host:port" (lower case, default port made explicit) of an http(s) origin.
func normalOrigin(s string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("%q is not an origin (want http(s)://host[:port])", s)
	}
	return a2a.Origin(u), nil
}
