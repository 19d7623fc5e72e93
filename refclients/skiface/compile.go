package skiface

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/extconf/extconf/harness/jsonptr"
)

var printer = message.NewPrinter(language.English)

// Limits bound what a hostile Skill Interface Document can make this package do ("Resource limits"). A zero
// field takes its default.
type Limits struct {
	MaxSchemaBytes  int           // one resolution.schema value, as received
	MaxNesting      int           // array/object nesting of a schema, a document or an instance
	MaxRefDepth     int           // consecutive $ref/$dynamicRef hops applied to one instance location
	CompileTimeout  time.Duration // compiling one schema
	MaxPayloadBytes int64         // one describe_skill or domain-skill response body
	MaxCacheEntries int           // validated documents kept
	MaxCacheBytes   int64         // their total JCS size
}

// DefaultLimits are the reference client's limits.
func DefaultLimits() Limits {
	return Limits{
		MaxSchemaBytes:  1 << 20,
		MaxNesting:      128,
		MaxRefDepth:     32,
		CompileTimeout:  2 * time.Second,
		MaxPayloadBytes: 4 << 20,
		MaxCacheEntries: 64,
		MaxCacheBytes:   32 << 20,
	}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	orDefault(&l.MaxSchemaBytes, d.MaxSchemaBytes)
	orDefault(&l.MaxNesting, d.MaxNesting)
	orDefault(&l.MaxRefDepth, d.MaxRefDepth)
	orDefault(&l.CompileTimeout, d.CompileTimeout)
	orDefault(&l.MaxPayloadBytes, d.MaxPayloadBytes)
	orDefault(&l.MaxCacheEntries, d.MaxCacheEntries)
	orDefault(&l.MaxCacheBytes, d.MaxCacheBytes)
	return l
}

// orDefault sets a zero or negative limit to its default.
func orDefault[T int | int64 | time.Duration](v *T, d T) {
	if *v <= 0 {
		*v = d
	}
}

// SchemaReference is the one reference structure of every schema role.
type SchemaReference struct {
	SchemaURI  string     `json:"schema_uri"`
	Version    string     `json:"version"`
	Dialect    string     `json:"dialect"`
	Digest     string     `json:"digest"`
	Resolution Resolution `json:"resolution"`
}

// Resolution is the inline delivery member; Schema keeps the bytes as received.
type Resolution struct {
	Type   string          `json:"type"`
	Schema json.RawMessage `json:"schema,omitempty"`
}

// SameIdentity reports whether two references agree on schema_uri, version, dialect and digest: the direct
// composition rule compares exactly these four.
func (r SchemaReference) SameIdentity(o SchemaReference) bool {
	return r.SchemaURI == o.SchemaURI && r.Version == o.Version && r.Dialect == o.Dialect && r.Digest == o.Digest
}

// Compiled is a verified, compiled inline schema.
type Compiled struct {
	Ref    SchemaReference
	schema *jsonschema.Schema
	budget *patternBudget // its patterns' matching time, shared by every Compiled of the same schema
	lim    Limits
	// RefDepth is the longest in-place reference chain found; Refs the number of references resolved.
	RefDepth, Refs int
}

// Violation is one reason an instance does not validate.
type Violation struct {
	InstancePath string // RFC 6901 JSON Pointer into the instance
	Message      string
	SchemaPath   string // keyword location inside the schema
	Keyword      string
}

// compileOpts are the deliberate breaks the client toggles select; the zero value is the conforming behaviour.
type compileOpts struct {
	skipDigest        bool
	rawDigest         bool // digest over the bytes as received instead of JCS
	noSizeLimit       bool
	noNestingLimit    bool
	noRefDepthLimit   bool
	noCycleLimit      bool
	noCompileTimeout  bool
	allowOtherDialect bool
	unresolvedAsTrue  bool // an unresolvable reference is treated as the true schema
	formatAnnotation  bool
	lenientDateTime   bool
	// fetch, when set, is a loader for external references (retrieval enabled): only a toggle sets it.
	fetch func(u string) (any, error)
}

// CompileSchema verifies and compiles one Schema Reference (its JSON object): resolution.type inline, the schema
// present inline, the declared dialect trusted locally (2020-12), the digest equal to the JCS SHA-256 of
// resolution.schema, every $ref/$dynamicRef resolving inside resolution.schema, embedded resources of the same
// dialect, and the limits. Format is asserted. Nothing is ever retrieved. Errors are *Error with code
// interface_invalid or resource_limit_exceeded.
func CompileSchema(ref json.RawMessage, lim Limits) (*Compiled, error) {
	return compileRef(ref, lim, compileOpts{}, "compile schema")
}

func compileRef(ref json.RawMessage, lim Limits, o compileOpts, step string) (*Compiled, error) {
	var sr SchemaReference
	if err := json.Unmarshal(ref, &sr); err != nil {
		return nil, &Error{Code: InterfaceInvalid, Step: step, Msg: "the Schema Reference is not an object of the defined members", Err: err}
	}
	return compileSR(sr, lim, o, step)
}

func compileSR(sr SchemaReference, lim Limits, o compileOpts, step string) (*Compiled, error) {
	lim = lim.withDefaults()
	if sr.Resolution.Type != "inline" {
		return nil, errf(InterfaceInvalid, step, "/resolution/type", "resolution.type is %q, version 1.0 requires inline", sr.Resolution.Type)
	}
	raw := []byte(sr.Resolution.Schema)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, errf(InterfaceInvalid, step, "/resolution/schema", "resolution.schema is absent: version 1.0 carries the schema inline")
	}
	if !trustedDialect(sr.Dialect) && !o.allowOtherDialect {
		return nil, errf(InterfaceInvalid, step, "/dialect", "dialect %q has no locally trusted meta-schema (only %s)", sr.Dialect, Dialect2020)
	}
	if !o.noSizeLimit && len(raw) > lim.MaxSchemaBytes {
		return nil, errf(ResourceLimitExceeded, step, "/resolution/schema", "the inline schema is %d bytes, over the schema size limit", len(raw))
	}
	if n := nesting(raw); !o.noNestingLimit && n > lim.MaxNesting {
		return nil, errf(ResourceLimitExceeded, step, "/resolution/schema", "the inline schema nests %d levels, over the nesting limit", n)
	}
	if !o.skipDigest {
		var got string
		var err error
		if o.rawDigest {
			got = DigestBytes(raw)
		} else if got, err = SchemaDigest(raw); err != nil {
			return nil, &Error{Code: InterfaceInvalid, Step: step, Path: "/resolution/schema", Msg: "the inline schema does not satisfy the JCS input requirements", Err: err}
		}
		if got != sr.Digest {
			return nil, errf(InterfaceInvalid, step, "/digest", "declared digest %s, calculated %s over JCS(resolution.schema)", sr.Digest, got)
		}
	}
	key := memoKey{raw: DigestBytes(raw), dialect: sr.Dialect, o: o.key(), lim: lim}
	if o.fetch == nil {
		if m, ok := compiledMemo.get(key); ok {
			return &Compiled{Ref: sr, schema: m.schema, budget: m.budget, lim: lim, RefDepth: m.depth, Refs: m.refs}, nil
		}
	}
	doc, err := decode(raw)
	if err != nil {
		return nil, &Error{Code: InterfaceInvalid, Step: step, Path: "/resolution/schema", Msg: "resolution.schema is not one JSON value", Err: err}
	}
	switch doc.(type) {
	case map[string]any, bool:
	default:
		return nil, errf(InterfaceInvalid, step, "/resolution/schema", "resolution.schema is neither an object nor a boolean")
	}

	g, aerr := analyse(doc, sr.Dialect, o)
	if aerr != nil {
		aerr.Step = step
		return nil, aerr
	}
	depth, cyc, cyclic := g.depth()
	if cyclic && !o.noCycleLimit {
		return nil, errf(ResourceLimitExceeded, step, "/resolution/schema"+cyc, "a reference cycle applies to one instance location without consuming it")
	}
	if !o.noRefDepthLimit && depth > lim.MaxRefDepth {
		return nil, errf(ResourceLimitExceeded, step, "/resolution/schema", "a reference chain is %d hops long, over the reference depth limit", depth)
	}

	budget := &patternBudget{}
	sch, err := compileLib(doc, o, lim.CompileTimeout, budget)
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			e.Step = step
			return nil, e
		}
		return nil, &Error{Code: InterfaceInvalid, Step: step, Path: "/resolution/schema", Msg: "the inline schema does not compile", Err: err}
	}
	if o.fetch == nil {
		compiledMemo.put(key, memoEntry{schema: sch, budget: budget, depth: depth, refs: len(g.refs)})
	}
	return &Compiled{Ref: sr, schema: sch, budget: budget, lim: lim, RefDepth: depth, Refs: len(g.refs)}, nil
}

// The compiled-validator cache ("A client agent caches … verified inline domain schemas, and compiled
// validators"): keyed by the exact bytes, the dialect, the rules in force and the limits, so a schema compiled
// under other limits or other (sabotaged) rules is compiled again. Bounded: it is dropped when full.
type memoKey struct {
	raw, dialect, o string
	lim             Limits
}

func (o compileOpts) key() string {
	return fmt.Sprint(o.skipDigest, o.rawDigest, o.noSizeLimit, o.noNestingLimit, o.noRefDepthLimit, o.noCycleLimit,
		o.noCompileTimeout, o.allowOtherDialect, o.unresolvedAsTrue, o.formatAnnotation, o.lenientDateTime)
}

type memoEntry struct {
	schema      *jsonschema.Schema
	budget      *patternBudget
	depth, refs int
}

type memo struct {
	mu sync.Mutex
	m  map[memoKey]memoEntry
}

const memoMax = 256

var compiledMemo = &memo{m: map[memoKey]memoEntry{}}

func (m *memo) get(k memoKey) (memoEntry, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.m[k]
	return e, ok
}

func (m *memo) put(k memoKey, e memoEntry) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.m) >= memoMax {
		m.m = map[memoKey]memoEntry{}
	}
	m.m[k] = e
}

// trustedDialect reports whether dialect names the 2020-12 meta-schema (with or without an empty fragment).
func trustedDialect(dialect string) bool {
	return dialect == Dialect2020 || dialect == Dialect2020+"#"
}

// rootURL is where an inline schema without its own absolute $id lives; .invalid never resolves.
const rootURL = "https://inline.extconf.invalid/resolution-schema.json"

// noLoader refuses every retrieval: the validator has no network and no filesystem.
type noLoader struct{}

func (noLoader) Load(u string) (any, error) {
	return nil, fmt.Errorf("retrieval of %s refused: version 1.0 schemas are inline", u)
}

type fetchLoader struct{ fetch func(string) (any, error) }

func (l fetchLoader) Load(u string) (any, error) { return l.fetch(u) }

func compileLib(doc any, o compileOpts, timeout time.Duration, budget *patternBudget) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseRegexpEngine(compileECMA(budget))
	registerFormats(c)
	if o.fetch != nil {
		c.UseLoader(fetchLoader{o.fetch})
	} else {
		c.UseLoader(noLoader{})
	}
	if !o.formatAnnotation {
		c.AssertFormat()
	}
	if o.lenientDateTime {
		c.RegisterFormat(&jsonschema.Format{Name: "date-time", Validate: lenientDateTime})
	}
	if err := c.AddResource(rootURL, doc); err != nil {
		return nil, err
	}
	type res struct {
		s   *jsonschema.Schema
		err error
	}
	done := make(chan res, 1)
	start := time.Now()
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- res{err: fmt.Errorf("schema compiler panicked: %v", p)}
			}
		}()
		s, err := c.Compile(rootURL)
		done <- res{s, err}
	}()
	if o.noCompileTimeout {
		r := <-done
		return r.s, r.err
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case r := <-done:
		if time.Since(start) > timeout {
			return nil, errf(ResourceLimitExceeded, "", "/resolution/schema", "compiling took %s, over the compilation time limit", time.Since(start).Round(time.Microsecond))
		}
		return r.s, r.err
	case <-t.C:
		// The compile goroutine finishes on its own; its result is dropped.
		return nil, errf(ResourceLimitExceeded, "", "/resolution/schema", "compiling did not finish within the compilation time limit")
	}
}

// lenientDateTime is the broken date-time check a toggle installs: any string starting with a date.
func lenientDateTime(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	if len(s) < 10 {
		return errors.New("not a date-time")
	}
	if _, err := time.Parse("2006-01-02", s[:10]); err != nil {
		return errors.New("not a date-time")
	}
	return nil
}

// Validate validates an instance: decoded JSON (numbers as json.Number or float64), json.RawMessage or []byte.
// The nesting limit applies to raw instances. A nil result means valid.
func (c *Compiled) Validate(instance any) []Violation {
	var v any
	switch x := instance.(type) {
	case json.RawMessage:
		return c.ValidateJSON(x)
	case []byte:
		return c.ValidateJSON(x)
	case map[string]any, []any, string, bool, nil, json.Number, float64:
		v = x
	default:
		b, err := json.Marshal(x)
		if err != nil {
			return []Violation{{InstancePath: "", Message: "the instance cannot be encoded as JSON: " + err.Error()}}
		}
		return c.ValidateJSON(b)
	}
	return c.validate(v)
}

// ValidateJSON validates raw JSON bytes.
func (c *Compiled) ValidateJSON(b []byte) []Violation {
	if n := nesting(b); n > c.lim.MaxNesting {
		return []Violation{{InstancePath: "", Message: fmt.Sprintf("the instance nests %d levels, over the nesting limit", n), Keyword: "resource_limit"}}
	}
	v, err := decode(b)
	if err != nil {
		return []Violation{{InstancePath: "", Message: "the instance is not one JSON value: " + err.Error()}}
	}
	return c.validate(v)
}

func (c *Compiled) validate(v any) (out []Violation) {
	defer func() {
		if p := recover(); p != nil {
			out = []Violation{{Message: fmt.Sprintf("validator panicked: %v", p)}}
		}
	}()
	b := c.budget
	if b == nil {
		b = &patternBudget{}
	}
	b.start() // one validation at a time per schema: its patterns' timeouts are its budget's
	defer b.end()
	err := c.schema.Validate(v)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []Violation{{Message: err.Error()}}
	}
	return leaves(ve, nil, b)
}

// leaves flattens a validation error tree into its innermost causes, in order.
func leaves(e *jsonschema.ValidationError, out []Violation, b *patternBudget) []Violation {
	if len(e.Causes) == 0 {
		kw := ""
		var kp []string
		if e.ErrorKind != nil {
			kp = e.ErrorKind.KeywordPath()
			if len(kp) > 0 {
				kw = kp[len(kp)-1]
			}
		}
		msg := fmt.Sprint(e.ErrorKind)
		if e.ErrorKind != nil {
			msg = e.ErrorKind.LocalizedString(printer)
		}
		sp := schemaPath(e.SchemaURL) + pointer(kp)
		if p, ok := e.ErrorKind.(*kind.Pattern); ok && b.wasUndecided(p.Want, p.Got) {
			// Undecided, not invalid: the match exceeded the time bound (resource limit).
			return append(out, Violation{InstancePath: pointer(e.InstanceLocation), SchemaPath: sp, Keyword: "resource_limit",
				Message: fmt.Sprintf("matching pattern %q did not finish within the match time limit (%s a match, %s a validation)", p.Want, PatternMatchTimeout, ValidationPatternBudget)})
		}
		if _, ok := e.ErrorKind.(*kind.Reference); ok {
			sp = schemaPath(e.SchemaURL)
		}
		return append(out, Violation{InstancePath: pointer(e.InstanceLocation), Message: msg, SchemaPath: sp, Keyword: kw})
	}
	for _, c := range e.Causes {
		out = leaves(c, out, b)
	}
	return out
}

func schemaPath(u string) string {
	if i := strings.IndexByte(u, '#'); i >= 0 {
		f, err := url.PathUnescape(u[i+1:])
		if err == nil {
			return f
		}
		return u[i+1:]
	}
	return ""
}

// Details turns violations into the error details of input_invalid / output_invalid.
func Details(vs []Violation) []Detail {
	out := make([]Detail, 0, len(vs))
	for _, v := range vs {
		out = append(out, Detail{InstancePath: v.InstancePath, SchemaPath: v.SchemaPath, Keyword: v.Keyword, Message: v.Message})
	}
	return out
}

// ---- static analysis: resources, references, cycles, depth

// Applicator keywords of 2020-12 whose subschemas apply to the same instance location (in place) or to a child.
var (
	inPlaceOne  = []string{"not", "if", "then", "else"}
	inPlaceMany = []string{"allOf", "anyOf", "oneOf"}
	inPlaceMap  = []string{"dependentSchemas"}
	childOne    = []string{"additionalProperties", "propertyNames", "items", "contains", "unevaluatedItems", "unevaluatedProperties", "contentSchema", "additionalItems"}
	childMany   = []string{"prefixItems"}
	childMap    = []string{"properties", "patternProperties"}
	definitions = []string{"$defs", "definitions"}
	refKeywords = []string{"$ref", "$dynamicRef"}
)

type edge struct {
	to    string
	isRef bool
}

type reference struct {
	from, keyword, value, base string
}

type graph struct {
	nodes     map[string]bool   // pointer of every subschema
	resources map[string]string // absolute URI (no fragment) → pointer
	anchors   map[string]string // absolute URI#name → pointer
	inPlace   map[string][]edge // in-place applicator edges, references included after resolve
	refs      []reference
	doc       any
}

func analyse(doc any, dialect string, o compileOpts) (*graph, *Error) {
	g := &graph{nodes: map[string]bool{}, resources: map[string]string{}, anchors: map[string]string{},
		inPlace: map[string][]edge{}, doc: doc}
	if err := g.walk(doc, "", rootURL, true, dialect, o); err != nil {
		return nil, err
	}
	for _, r := range g.refs {
		to, err := g.resolve(r)
		if err != nil {
			if o.unresolvedAsTrue || o.fetch != nil {
				continue
			}
			return nil, errf(InterfaceInvalid, "", "/resolution/schema"+r.from+"/"+r.keyword,
				"%s %q does not resolve inside resolution.schema: %v", r.keyword, r.value, err)
		}
		g.inPlace[r.from] = append(g.inPlace[r.from], edge{to: to, isRef: true})
	}
	if o.unresolvedAsTrue {
		// The broken client drops what it cannot resolve, so the compiler never sees it.
		g.dropUnresolved()
	}
	return g, nil
}

func (g *graph) walk(v any, ptr, base string, root bool, dialect string, o compileOpts) *Error {
	obj, ok := v.(map[string]any)
	if !ok {
		if _, isBool := v.(bool); isBool {
			g.nodes[ptr] = true
		}
		return nil
	}
	g.nodes[ptr] = true
	if s, ok := obj["$schema"].(string); ok && stripFragment(s) != stripFragment(dialect) && !o.allowOtherDialect {
		return errf(InterfaceInvalid, "", "/resolution/schema"+ptr+"/$schema",
			"an embedded resource selects dialect %q, not the Schema Reference's %q", s, dialect)
	}
	if id, ok := obj["$id"].(string); ok {
		u, err := resolveURI(base, id)
		if err != nil {
			return errf(InterfaceInvalid, "", "/resolution/schema"+ptr+"/$id", "$id %q is not a URI reference: %v", id, err)
		}
		if !root && !isAbsolute(id) {
			return errf(InterfaceInvalid, "", "/resolution/schema"+ptr+"/$id", "embedded resource $id %q is not an absolute URI", id)
		}
		base = stripFragment(u)
		if _, dup := g.resources[base]; dup && !root {
			return errf(InterfaceInvalid, "", "/resolution/schema"+ptr+"/$id", "two resources claim $id %q", base)
		}
		g.resources[base] = ptr
	} else if root {
		g.resources[base] = ptr
	}
	for _, k := range []string{"$anchor", "$dynamicAnchor"} {
		if a, ok := obj[k].(string); ok {
			g.anchors[base+"#"+a] = ptr
		}
	}
	for _, k := range refKeywords {
		if r, ok := obj[k].(string); ok {
			g.refs = append(g.refs, reference{from: ptr, keyword: k, value: r, base: base})
		}
	}
	sub := func(p string, x any, inPlace bool) *Error {
		if inPlace {
			g.inPlace[ptr] = append(g.inPlace[ptr], edge{to: p})
		}
		return g.walk(x, p, base, false, dialect, o)
	}
	for _, k := range sortedKeys(obj) {
		x := obj[k]
		p := ptr + "/" + jsonptr.Escape(k)
		switch {
		case slices.Contains(inPlaceOne, k):
			if err := sub(p, x, true); err != nil {
				return err
			}
		case slices.Contains(childOne, k):
			if arr, ok := x.([]any); ok && (k == "items" || k == "additionalItems") {
				for i, it := range arr { // draft-07 array form, harmless to walk
					if err := sub(fmt.Sprintf("%s/%d", p, i), it, false); err != nil {
						return err
					}
				}
				continue
			}
			if err := sub(p, x, false); err != nil {
				return err
			}
		case slices.Contains(inPlaceMany, k), slices.Contains(childMany, k):
			arr, _ := x.([]any)
			for i, it := range arr {
				if err := sub(fmt.Sprintf("%s/%d", p, i), it, slices.Contains(inPlaceMany, k)); err != nil {
					return err
				}
			}
		case slices.Contains(inPlaceMap, k), slices.Contains(childMap, k), slices.Contains(definitions, k):
			m, _ := x.(map[string]any)
			for _, mk := range sortedKeys(m) {
				if err := sub(p+"/"+jsonptr.Escape(mk), m[mk], slices.Contains(inPlaceMap, k)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (g *graph) resolve(r reference) (string, error) {
	u, err := resolveURI(r.base, r.value)
	if err != nil {
		return "", err
	}
	res, frag := u, ""
	if i := strings.IndexByte(u, '#'); i >= 0 {
		res, frag = u[:i], u[i+1:]
	}
	rootPtr, ok := g.resources[res]
	if !ok {
		return "", fmt.Errorf("no schema resource %q inside resolution.schema (external retrieval is not allowed)", res)
	}
	if frag == "" {
		return rootPtr, nil
	}
	if frag[0] != '/' {
		p, ok := g.anchors[res+"#"+frag]
		if !ok {
			return "", fmt.Errorf("no anchor %q in resource %q", frag, res)
		}
		return p, nil
	}
	dec, err := url.PathUnescape(frag)
	if err != nil {
		return "", err
	}
	target := rootPtr + dec
	if _, ok := Resolve(g.doc, target); !ok {
		return "", fmt.Errorf("JSON Pointer %q designates nothing", dec)
	}
	if !g.nodes[target] {
		g.nodes[target] = true // a pointer into a place the walk did not treat as a schema; the compiler decides
	}
	return target, nil
}

// dropUnresolved replaces every reference that did not resolve by the true schema (what a lax client does).
func (g *graph) dropUnresolved() {
	for _, r := range g.refs {
		if _, err := g.resolve(r); err == nil {
			continue
		}
		if obj, ok := resolvePtr(g.doc, r.from).(map[string]any); ok {
			delete(obj, r.keyword)
		}
	}
}

func resolvePtr(doc any, p string) any {
	v, _ := Resolve(doc, p)
	return v
}

// depth returns the longest chain of reference hops along in-place edges and, if any, a node on an in-place
// cycle (a cycle that never consumes the instance: infinite evaluation).
func (g *graph) depth() (int, string, bool) {
	const (
		white = 0
		grey  = 1
		black = 2
	)
	color := map[string]int{}
	memo := map[string]int{}
	cycle, cyclic := "", false
	var visit func(n string) int
	visit = func(n string) int {
		switch color[n] {
		case grey:
			if !cyclic {
				cycle, cyclic = n, true
			}
			return 0
		case black:
			return memo[n]
		}
		color[n] = grey
		best := 0
		for _, e := range g.inPlace[n] {
			d := visit(e.to)
			if e.isRef {
				d++
			}
			if d > best {
				best = d
			}
		}
		color[n] = black
		memo[n] = best
		return best
	}
	max := 0
	nodes := make([]string, 0, len(g.nodes))
	for n := range g.nodes {
		nodes = append(nodes, n)
	}
	sort.Strings(nodes)
	for _, n := range nodes {
		if d := visit(n); d > max {
			max = d
		}
	}
	return max, cycle, cyclic
}

func resolveURI(base, ref string) (string, error) {
	r, err := url.Parse(ref)
	if err != nil {
		return "", err
	}
	if r.IsAbs() {
		return r.String(), nil
	}
	b, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	if r.Scheme == "" && r.Host == "" && r.Path == "" && r.RawQuery == "" {
		// fragment-only: same resource (also for opaque bases such as urn:)
		b.Fragment, b.RawFragment = r.Fragment, r.RawFragment
		return b.String(), nil
	}
	if b.Opaque != "" {
		return "", fmt.Errorf("relative reference %q against the non-hierarchical base %q", ref, base)
	}
	return b.ResolveReference(r).String(), nil
}

func isAbsolute(id string) bool {
	u, err := url.Parse(id)
	return err == nil && u.IsAbs()
}

func stripFragment(u string) string {
	if i := strings.IndexByte(u, '#'); i >= 0 {
		return u[:i]
	}
	return u
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
