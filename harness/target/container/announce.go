package container

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/extconf/extconf/harness/target"
)

// announcement is what a reference-agent image printed.
type announcement struct {
	roles  map[string]string
	config target.Config
}

var roleRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// awaitAnnouncement polls the container's stdout until MockReady (bounded by ctx) and parses the role lines.
func (c *ctr) awaitAnnouncement(ctx context.Context, allowed map[string]bool) (*announcement, error) {
	for {
		out, _ := c.fetchLogs(ctx)
		if ann, done, err := parseAnnouncement(out, allowed); err != nil {
			return nil, err
		} else if done {
			return ann, nil
		}
		if err := c.stillRunning(ctx); err != nil {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("the reference agents did not announce their roles (%q) in time: %w%s", MockReady, ctx.Err(), c.logTail())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// parseAnnouncement reads the mock protocol from log text. Card URLs must be on one of the published origins: the
// container cannot point the harness anywhere else.
func parseAnnouncement(logText []byte, allowed map[string]bool) (*announcement, bool, error) {
	ann := &announcement{roles: map[string]string{}}
	sc := bufio.NewScanner(bytes.NewReader(logText))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		switch {
		case line == MockReady:
			if len(ann.roles) == 0 {
				return nil, true, errors.New("the reference agents announced no role")
			}
			return ann, true, nil
		case strings.HasPrefix(line, MockConfigPrefix):
			dec := json.NewDecoder(strings.NewReader(strings.TrimPrefix(line, MockConfigPrefix)))
			dec.DisallowUnknownFields()
			var cfg target.Config
			if err := dec.Decode(&cfg); err != nil {
				return nil, true, fmt.Errorf("announced operator settings: %w", err)
			}
			if err := checkAnnounced(&cfg, allowed); err != nil {
				return nil, true, err
			}
			ann.config = cfg
		default:
			role, u, ok := strings.Cut(line, "\t")
			if !ok {
				continue // other output (stderr shares the log)
			}
			if role == "-" {
				role = ""
			}
			if role != "" && !roleRE.MatchString(role) {
				continue
			}
			if err := onAllowedOrigin(u, allowed); err != nil {
				return nil, true, fmt.Errorf("role %q: %w", role, err)
			}
			if prev, dup := ann.roles[role]; dup && prev != u {
				return nil, true, fmt.Errorf("role %q announced twice (%s, %s)", role, prev, u)
			}
			ann.roles[role] = u
		}
	}
	return nil, false, nil
}

func onAllowedOrigin(raw string, allowed map[string]bool) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.User != nil {
		return fmt.Errorf("announced URL %q is not an http(s) URL", raw)
	}
	if !allowed[u.Host] {
		return fmt.Errorf("announced URL %q is not on a port this container publishes on 127.0.0.1", raw)
	}
	return nil
}

// checkAnnounced keeps the members a container may supply about itself: credentials, request texts, acting-for,
// provider, trusted keys and URLs on its own published origins; never a host file or container settings.
func checkAnnounced(cfg *target.Config, allowed map[string]bool) error {
	cfg.CAFile, cfg.Port, cfg.CardPath, cfg.Scheme, cfg.Cmd, cfg.Limits = "", "", "", "", nil, nil
	for role, u := range cfg.Agents {
		if err := onAllowedOrigin(u, allowed); err != nil {
			return fmt.Errorf("announced agent %q: %w", role, err)
		}
	}
	for name, u := range map[string]string{"inventory": cfg.Inventory, "discovery": cfg.Discovery} {
		if u != "" {
			if err := onAllowedOrigin(u, allowed); err != nil {
				return fmt.Errorf("announced %s: %w", name, err)
			}
		}
	}
	// Document sections name hooks, inventories and statements: every URL in them stays on the container.
	for id, sec := range cfg.Documents {
		var v any
		if err := json.Unmarshal(sec, &v); err != nil {
			return fmt.Errorf("announced documents.%s: %w", id, err)
		}
		if err := urlsOnOrigin(v, "$.documents."+id, allowed); err != nil {
			return err
		}
	}
	return nil
}

// urlsOnOrigin checks every http(s) URL string in v against the container's published origins.
func urlsOnOrigin(v any, path string, allowed map[string]bool) error {
	switch x := v.(type) {
	case string:
		if strings.HasPrefix(x, "http://") || strings.HasPrefix(x, "https://") {
			if err := onAllowedOrigin(x, allowed); err != nil {
				return fmt.Errorf("announced %s: %w (a container may announce only URLs on the ports it publishes; to use this one, write the member in --config)", path, err)
			}
		}
	case []any:
		for i, e := range x {
			if err := urlsOnOrigin(e, fmt.Sprintf("%s[%d]", path, i), allowed); err != nil {
				return err
			}
		}
	case map[string]any:
		for k, e := range x {
			if err := urlsOnOrigin(e, path+"."+k, allowed); err != nil {
				return err
			}
		}
	}
	return nil
}

// mergeAnnounced fills what the operator's configuration leaves empty with what the reference agents announced.
func mergeAnnounced(op, ann target.Config) target.Config {
	out := op
	out.Agents = mergeMap(ann.Agents, op.Agents)
	out.Principals = mergeMap(ann.Principals, op.Principals)
	out.Requests = mergeMap(ann.Requests, op.Requests)
	out.Credentials = mergeMap(ann.Credentials, op.Credentials)
	out.Documents = mergeMap(ann.Documents, op.Documents)
	for id, sec := range op.Documents {
		if a, ok := ann.Documents[id]; ok {
			out.Documents[id] = mergeObjects(a, sec)
		}
	}
	if out.Inventory == "" {
		out.Inventory = ann.Inventory
	}
	if out.Discovery == "" {
		out.Discovery = ann.Discovery
	}
	if out.ActingFor == nil {
		out.ActingFor = ann.ActingFor
	}
	if out.Provider == "" {
		out.Provider = ann.Provider
	}
	if len(out.TrustedKeys) == 0 {
		out.TrustedKeys = ann.TrustedKeys
	}
	return out
}

// mergeObjects fills the members the operator's section leaves out with the announced ones (objects merged member
// by member, anything else the operator's).
func mergeObjects(ann, op json.RawMessage) json.RawMessage {
	var a, o map[string]json.RawMessage
	if json.Unmarshal(ann, &a) != nil || json.Unmarshal(op, &o) != nil || o == nil {
		return op
	}
	for k, v := range a {
		if ov, ok := o[k]; ok {
			o[k] = mergeObjects(v, ov)
		} else {
			o[k] = v
		}
	}
	b, err := json.Marshal(o)
	if err != nil {
		return op
	}
	return b
}

func mergeMap[V any](base, over map[string]V) map[string]V {
	if base == nil && over == nil {
		return nil
	}
	out := map[string]V{}
	for k, v := range base {
		out[k] = v
	}
	for k, v := range over {
		out[k] = v
	}
	return out
}
