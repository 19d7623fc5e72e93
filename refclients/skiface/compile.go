package skiface

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
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
		return nil, errf(InterfaceInvalid, step, "/dialect", "dialect %q has no locally trusted meta-schema (2020-12, 2019-09, draft-07)", sr.Dialect)
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
	sch, err := compileLib(doc, draftOf(sr.Dialect), o, lim.CompileTimeout, budget)
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

// trustedDialect reports whether dialect names a meta-schema this package holds a locally trusted copy of (the
// validator library's embedded 2020-12, 2019-09 and draft-07 meta-schemas), with or without an empty fragment.
// "dialect: schema language and version" fixes no dialect; "The only schema content a validator may use from
// outside resolution.schema is a locally trusted copy of the meta-schema identified by the Schema Reference's
// dialect."
func trustedDialect(dialect string) bool { return draftOf(dialect) != nil }

// trustedDialects maps a dialect URI (no fragment) to the validator library's draft.
var trustedDialects = map[string]*jsonschema.Draft{
	Dialect2020: jsonschema.Draft2020,
	"https://json-schema.org/draft/2019-09/schema": jsonschema.Draft2019,
	"http://json-schema.org/draft-07/schema":       jsonschema.Draft7,
	"https://json-schema.org/draft-07/schema":      jsonschema.Draft7,
}

// draftOf returns the draft a trusted dialect names, or nil.
func draftOf(dialect string) *jsonschema.Draft {
	return trustedDialects[strings.TrimSuffix(dialect, "#")]
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

func compileLib(doc any, draft *jsonschema.Draft, o compileOpts, timeout time.Duration, budget *patternBudget) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	if draft == nil { // an untrusted dialect compiled on request (a sabotaged client): read as 2020-12
		draft = jsonschema.Draft2020
	}
	c.DefaultDraft(draft)
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

// ---- static analysis: resources, references, cycles, depth
