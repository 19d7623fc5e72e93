package rules

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/harness/jsonptr"
)

// MaxRuleBytes bounds one rule file.
const MaxRuleBytes = 64 << 10

// MaxExprBytes bounds one CEL expression's source.
const MaxExprBytes = 4096

// Witness kinds a data rule can have.
const (
	WitnessStatic = "static" // a check on the fetched card (and a document it names)
	WitnessWire   = "wire"   // a check on one exchange with the agent
)

// Patch targets: what the reference agent's answer is rewritten at.
const (
	TargetCard     = "card"     // the Agent Card response
	TargetDocument = "document" // the JSON document the rule's fetch pointer names
	TargetResponse = "response" // the body of the response to the rule's request
)

// Rule is one proposed requirement stated as data.
type Rule struct {
	ID       string `json:"id"`                 // the proposed row id, label-safe; never a published row's id
	Document string `json:"document"`           // catalog document id
	Role     string `json:"role,omitempty"`     // the agent role whose card is read (default: the document id)
	Source   string `json:"source"`             // the proposed sentence, verbatim
	Clause   string `json:"clause,omitempty"`   // what the check asserts, in words (default: the source)
	Level    string `json:"level"`              // MUST | MUST NOT | REQUIRED | SHALL | SHOULD | SHOULD NOT
	Witness  string `json:"witness"`            // static | wire
	Restates string `json:"restates,omitempty"` // a published row this rule re-expresses (examples, migrations)
	// Fetch is a JSON Pointer into the card to a string URL; the JSON document there is `document` in CEL.
	Fetch   string   `json:"fetch,omitempty"`
	Request *Request `json:"request,omitempty"` // wire rules: the one exchange
	// When (CEL, optional): false makes the rule inapplicable to this agent (it does not declare the behaviour).
	When string `json:"when,omitempty"`
	// Check (CEL, required): true when the agent honours the rule.
	Check string `json:"check"`
	// Observe (CEL, optional): a string describing what was seen, quoted when the check fails.
	Observe   string     `json:"observe,omitempty"`
	Sabotage  Patch      `json:"sabotage"`
	Latitudes []Latitude `json:"latitudes,omitempty"`

	path string // the file it came from
}

// Request is the one A2A call of a wire rule, over the card's JSON-RPC interface.
type Request struct {
	Method string `json:"method"` // A2A JSON-RPC method, e.g. SendMessage
	// Params are sent as the call's params; a string "{{card:/pointer}}" is replaced by the card's value there.
	Params     any      `json:"params,omitempty"`
	Extensions []string `json:"extensions,omitempty"` // A2A-Extensions header values (activation)
}

// Patch is a rewrite of one answer of the reference agent.
type Patch struct {
	Target string `json:"target"` // card | document | response
	Ops    []Op   `json:"patch"`  // RFC 6902 operations
}

// Latitude is a change the rule must accept: the document permits it.
type Latitude struct {
	ID      string `json:"id"`
	Permits string `json:"permits"` // the sentence (or silence) that permits it
	Target  string `json:"target"`
	Ops     []Op   `json:"patch"`
}

// Op is one RFC 6902 operation (add, remove, replace, move, copy, test).
type Op struct {
	Op    string          `json:"op"`
	Path  string          `json:"path"`
	From  string          `json:"from,omitempty"`
	Value json.RawMessage `json:"value,omitempty"` // present (null included) for add, replace and test
}

// File is where the rule was read from ("" when parsed from bytes).
func (r *Rule) File() string { return r.path }

// RoleOrDocument is the role whose card the rule reads.
func (r *Rule) RoleOrDocument() string {
	if r.Role != "" {
		return r.Role
	}
	return r.Document
}

// ClauseOrSource is the words a failure quotes.
func (r *Rule) ClauseOrSource() string {
	if r.Clause != "" {
		return r.Clause
	}
	return r.Source
}

// LoadFile reads, decodes and validates one rule file.
func LoadFile(path string) (*Rule, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxRuleBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r.path = path
	return r, nil
}

// LoadDir loads every *.yaml, *.yml and *.json file of dir, in name order. Duplicate ids are an error.
func LoadDir(dir string) ([]*Rule, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, e := range ents {
		n := e.Name()
		if !e.IsDir() && (strings.HasSuffix(n, ".yaml") || strings.HasSuffix(n, ".yml") || strings.HasSuffix(n, ".json")) {
			paths = append(paths, dir+string(os.PathSeparator)+n)
		}
	}
	sort.Strings(paths)
	return LoadFiles(paths...)
}

// LoadFiles loads the named rule files; duplicate ids are an error.
func LoadFiles(paths ...string) ([]*Rule, error) {
	var out []*Rule
	seen := map[string]string{}
	var errs []error
	for _, p := range paths {
		r, err := LoadFile(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if prev, dup := seen[r.ID]; dup {
			errs = append(errs, fmt.Errorf("%s: id %q is also the id of %s", p, r.ID, prev))
			continue
		}
		seen[r.ID] = p
		out = append(out, r)
	}
	return out, errors.Join(errs...)
}

// Parse decodes a rule from YAML or JSON bytes, strictly, and validates it (CEL included).
func Parse(b []byte) (*Rule, error) {
	if len(b) > MaxRuleBytes {
		return nil, fmt.Errorf("rule file larger than %d bytes", MaxRuleBytes)
	}
	v, err := yamlToJSONValue(b)
	if err != nil {
		return nil, err
	}
	if err := checkMembers(v, reflect.TypeFor[Rule](), ""); err != nil {
		return nil, err
	}
	j, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var r Rule
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, err
	}
	if err := r.Validate(); err != nil {
		return nil, err
	}
	// The published schema is the backstop: the harness never accepts a file the schema refuses.
	if err := validateSchema(v); err != nil {
		return nil, err
	}
	return &r, nil
}

var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9.-]{0,63}$`)

var levels = []string{"MUST", "MUST NOT", "REQUIRED", "SHALL", "SHALL NOT", "SHOULD", "SHOULD NOT"}

// Validate checks every member, compiles the CEL and parses the patches' pointers.
func (r *Rule) Validate() error {
	var errs []error
	bad := func(path, format string, a ...any) { errs = append(errs, fmt.Errorf(path+": "+format, a...)) }
	cat, err := catalog.Load()
	if err != nil {
		return err
	}
	if !idPattern.MatchString(r.ID) {
		bad("id", "%q is not a label-safe row id ([A-Za-z0-9.-], at most 64)", r.ID)
	} else if _, published := cat.Row(r.ID); published {
		bad("id", "%q is a published catalog row; a proposed rule needs its own id (say which row it restates in restates)", r.ID)
	}
	if _, ok := catalog.DocumentByID(r.Document); !ok {
		bad("document", "unknown document %q", r.Document)
	}
	if strings.TrimSpace(r.Source) == "" {
		bad("source", "the proposed sentence is required")
	}
	if !containsStr(levels, r.Level) {
		bad("level", "%q: want one of %s", r.Level, strings.Join(levels, ", "))
	}
	if r.Restates != "" {
		if row, ok := cat.Row(r.Restates); !ok {
			bad("restates", "no published row %q", r.Restates)
		} else if row.Document != r.Document {
			bad("restates", "%s belongs to %s, not %s", r.Restates, row.Document, r.Document)
		}
	}
	if r.Fetch != "" {
		if _, err := jsonptr.Split(r.Fetch); err != nil {
			bad("fetch", "%v", err)
		}
	}
	switch r.Witness {
	case WitnessStatic:
		if r.Request != nil {
			bad("request", "a static rule makes no request (witness: wire)")
		}
	case WitnessWire:
		if r.Request == nil || strings.TrimSpace(r.Request.Method) == "" {
			bad("request.method", "a wire rule names the A2A method it calls")
		}
	default:
		bad("witness", "%q: want static or wire", r.Witness)
	}
	for name, src := range map[string]string{"when": r.When, "check": r.Check, "observe": r.Observe} {
		if src == "" && name != "check" {
			continue
		}
		if _, err := compile(src, name == "observe"); err != nil {
			bad(name, "%v", err)
		}
	}
	checkPatch := func(path, target string, ops []Op) {
		switch target {
		case TargetCard:
		case TargetDocument:
			if r.Fetch == "" {
				bad(path+".target", "document: the rule fetches no document (fetch)")
			}
		case TargetResponse:
			if r.Request == nil {
				bad(path+".target", "response: the rule makes no request (request)")
			}
		default:
			bad(path+".target", "%q: want card, document or response", target)
		}
		if len(ops) == 0 {
			bad(path+".patch", "at least one operation")
		}
		for i, op := range ops {
			if err := op.validate(); err != nil {
				bad(fmt.Sprintf("%s.patch[%d]", path, i), "%v", err)
			}
		}
	}
	checkPatch("sabotage", r.Sabotage.Target, r.Sabotage.Ops)
	seen := map[string]bool{}
	for i, l := range r.Latitudes {
		p := fmt.Sprintf("latitudes[%d]", i)
		if !idPattern.MatchString(l.ID) || seen[l.ID] {
			bad(p+".id", "%q: a label-safe id, unique within the rule", l.ID)
		}
		seen[l.ID] = true
		if strings.TrimSpace(l.Permits) == "" {
			bad(p+".permits", "say which sentence (or silence) of the document permits it")
		}
		checkPatch(p, l.Target, l.Ops)
	}
	return errors.Join(errs...)
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// yamlToJSONValue decodes one YAML (or JSON) document into JSON values: objects with string keys, arrays,
// strings, numbers, booleans and null. Anchors, aliases, tags beyond the core schema, duplicate keys and more than
// one document are refused.
func yamlToJSONValue(b []byte) (any, error) {
	dec := yaml.NewDecoder(bytes.NewReader(b))
	var n yaml.Node
	if err := dec.Decode(&n); err != nil {
		if err == io.EOF {
			return nil, errors.New("empty rule file")
		}
		return nil, fmt.Errorf("not YAML or JSON: %w", err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err != io.EOF {
		return nil, errors.New("more than one YAML document in a rule file")
	}
	return nodeValue(&n, "", 0)
}

func nodeValue(n *yaml.Node, path string, depth int) (any, error) {
	if depth > 64 {
		return nil, fmt.Errorf("%s: nested deeper than 64", orRoot(path))
	}
	if n.Anchor != "" {
		return nil, fmt.Errorf("%s: YAML anchors are not allowed in a rule file", orRoot(path))
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) != 1 {
			return nil, errors.New("empty rule file")
		}
		return nodeValue(n.Content[0], path, depth)
	case yaml.AliasNode:
		return nil, fmt.Errorf("%s: YAML aliases are not allowed in a rule file", orRoot(path))
	case yaml.MappingNode:
		m := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode || (k.Tag != "!!str" && k.Tag != "") {
				return nil, fmt.Errorf("%s: member names must be strings", orRoot(path))
			}
			if _, dup := m[k.Value]; dup {
				return nil, fmt.Errorf("%s: member %q appears twice", orRoot(path), k.Value)
			}
			v, err := nodeValue(n.Content[i+1], join(path, k.Value), depth+1)
			if err != nil {
				return nil, err
			}
			m[k.Value] = v
		}
		return m, nil
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for i, c := range n.Content {
			v, err := nodeValue(c, path+"["+strconv.Itoa(i)+"]", depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!str", "!!binary", "":
			return n.Value, nil
		case "!!null":
			return nil, nil
		case "!!bool", "!!int", "!!float":
			var v any
			if err := n.Decode(&v); err != nil {
				return nil, fmt.Errorf("%s: %w", orRoot(path), err)
			}
			if f, ok := v.(float64); ok && (f != f || f > 1e308 || f < -1e308) {
				return nil, fmt.Errorf("%s: not a JSON number", orRoot(path))
			}
			return v, nil
		default:
			return nil, fmt.Errorf("%s: YAML tag %s is not allowed", orRoot(path), n.Tag)
		}
	}
	return nil, fmt.Errorf("%s: unsupported YAML node", orRoot(path))
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func orRoot(path string) string {
	if path == "" {
		return "(top level)"
	}
	return path
}

// checkMembers walks a decoded JSON value along the Go type it will be decoded into and names the path of the
// first member the type does not have, and of a value of the wrong kind.
func checkMembers(v any, t reflect.Type, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if v == nil {
		return nil
	}
	switch t.Kind() {
	case reflect.Interface:
		return nil // free JSON (request params)
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: want an object", orRoot(path))
		}
		fields := map[string]reflect.Type{}
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name != "" && name != "-" {
				fields[name] = f.Type
			}
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			ft, ok := fields[k]
			if !ok {
				return fmt.Errorf("%s: unknown member (allowed: %s)", join(path, k), strings.Join(sortedKeys(fields), ", "))
			}
			if err := checkMembers(m[k], ft, join(path, k)); err != nil {
				return err
			}
		}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return nil // json.RawMessage: free JSON (patch values)
		}
		a, ok := v.([]any)
		if !ok {
			return fmt.Errorf("%s: want an array", orRoot(path))
		}
		for i, x := range a {
			if err := checkMembers(x, t.Elem(), path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
	case reflect.String:
		if _, ok := v.(string); !ok {
			return fmt.Errorf("%s: want a string", orRoot(path))
		}
	}
	return nil
}

func sortedKeys(m map[string]reflect.Type) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
