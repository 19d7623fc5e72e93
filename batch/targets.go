package batch

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/extconf/extconf/harness/strictjson"
)

// File is a targets file:
//
//	{"targets": [
//	  {"name": "acme", "target": "https://agent.acme.example/", "config": "acme.json"},
//	  {"image": "registry.local/agent:1.2", "config": "agent.json"}
//	]}
//
// Relative config paths are read from the targets file's directory.
type File struct {
	Targets []Target `json:"targets"`
}

// Target is one agent to certify: exactly one of URL (a card URL or origin) and Image (a local image).
type Target struct {
	Name   string `json:"name,omitempty"`   // the bundle directory's name; derived from the target when absent
	URL    string `json:"target,omitempty"` // the agent's card URL or origin, as `runsuite run --target` takes it
	Image  string `json:"image,omitempty"`  // a local image, as `runsuite run --image` takes it
	Config string `json:"config,omitempty"` // its target configuration file
}

// nameRE is what a bundle directory may be called: one path element, portable, no dot files.
var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`)

// Load reads a targets file strictly (an unknown or case-variant member, a duplicate or a wrong type is an error
// naming its JSON path), checks every entry, resolves config paths and gives each entry a unique name.
func Load(path string) ([]Target, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f File
	if err := strictjson.Decode(raw, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(f.Targets) == 0 {
		return nil, fmt.Errorf("%s: $.targets lists no target", path)
	}
	base := filepath.Dir(path)
	taken := map[string]bool{}
	var errs []error
	for i := range f.Targets {
		t := &f.Targets[i]
		at := fmt.Sprintf("%s: $.targets[%d]", path, i)
		switch {
		case (t.URL == "") == (t.Image == ""):
			errs = append(errs, fmt.Errorf("%s: give exactly one of \"target\" (a card URL) and \"image\"", at))
			continue
		case t.URL != "":
			if u, err := url.Parse(t.URL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
				errs = append(errs, fmt.Errorf("%s.target %q: want an http(s) URL (a card URL or an origin)", at, t.URL))
				continue
			}
		}
		if t.Config != "" {
			if !filepath.IsAbs(t.Config) {
				t.Config = filepath.Join(base, t.Config)
			}
			if fi, err := os.Stat(t.Config); err != nil || fi.IsDir() {
				errs = append(errs, fmt.Errorf("%s.config: %s is not a readable file", at, t.Config))
			}
		}
		if t.Name != "" && !nameRE.MatchString(t.Name) {
			errs = append(errs, fmt.Errorf("%s.name %q: want letters, digits, '.', '_' or '-' (it names the bundle directory)", at, t.Name))
			continue
		}
		if t.Name != "" {
			if taken[strings.ToLower(t.Name)] {
				errs = append(errs, fmt.Errorf("%s.name %q: another target has this name (compared without case)", at, t.Name))
			}
			taken[strings.ToLower(t.Name)] = true
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	// Derived names last, so that a given name is never taken by a derived one.
	for i := range f.Targets {
		t := &f.Targets[i]
		if t.Name != "" {
			continue
		}
		stem := derive(t)
		name := stem
		for n := 2; taken[strings.ToLower(name)]; n++ {
			name = fmt.Sprintf("%s-%d", stem, n)
		}
		t.Name = name
		taken[strings.ToLower(name)] = true
	}
	return f.Targets, nil
}

var unsafeRun = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// derive names a target after its host and port, or its image reference.
func derive(t *Target) string {
	s := t.Image
	if t.URL != "" {
		u, _ := url.Parse(t.URL)
		s = u.Host
	}
	s = strings.Trim(unsafeRun.ReplaceAllString(s, "-"), "-._")
	if len(s) > 90 {
		s = s[:90]
	}
	if s == "" {
		s = "target"
	}
	return s
}

// Shard keeps the targets whose position i in the file has i mod n == k: shard k of n (a Kubernetes Indexed
// Job's pod k of n takes its own).
func Shard(ts []Target, k, n int) []Target {
	var out []Target
	for i, t := range ts {
		if i%n == k {
			out = append(out, t)
		}
	}
	return out
}
