package skiface

import (
	"fmt"
	"regexp"
	"sync"
	"time"

	"github.com/dlclark/regexp2/v2"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// JSON Schema's "pattern", "patternProperties" and format "regex" are ECMA-262 regular expressions (JSON Schema
// 2020-12 core §6.4, Validation §6.3.3). Go's RE2 rejects valid ECMA-262 (lookaround, backreferences, \u0041,
// \cJ), which would make a valid schema interface_invalid. Patterns are therefore compiled with an ECMAScript
// engine (regexp2, ECMAScript mode), with the "u" flag the core spec recommends and, when a pattern is valid only
// without it, without it: a pattern either reading accepts compiles.
//
// regexp2 backtracks, so every match is bounded by PatternMatchTimeout. When the same pattern is also valid RE2
// (its linear-time answer then agrees with ECMA-262 for the constructs both share), a timed-out match is decided
// by RE2; otherwise the match is reported as a resource limit, never as a verdict on the instance.

// PatternMatchTimeout bounds one ECMAScript match.
var PatternMatchTimeout = 250 * time.Millisecond

// ValidationPatternBudget bounds all the ECMAScript matching of one validation: an instance with many strings
// under a pattern that backtracks would otherwise cost PatternMatchTimeout per string. Past it every further
// match without an RE2 answer is undecided at once (a resource limit, as one timed-out match is).
var ValidationPatternBudget = time.Second

// patternBudget is shared by the patterns of one compiled schema; a validation holds it while it runs.
type patternBudget struct {
	mu        sync.Mutex
	until     time.Time          // the running validation's budget end; zero outside a validation
	undecided map[[2]string]bool // (pattern, value) matches the running validation left undecided
}

func (b *patternBudget) start() {
	b.mu.Lock()
	b.until, b.undecided = time.Now().Add(ValidationPatternBudget), nil
}

func (b *patternBudget) end() {
	b.until, b.undecided = time.Time{}, nil
	b.mu.Unlock()
}

func (b *patternBudget) note(pattern, value string) {
	if b.undecided == nil {
		b.undecided = map[[2]string]bool{}
	}
	b.undecided[[2]string{pattern, value}] = true
}

// wasUndecided reports whether the running validation could not decide value against pattern.
func (b *patternBudget) wasUndecided(pattern, value string) bool {
	return b != nil && b.undecided[[2]string{pattern, value}]
}

// ecmaRegexp is one compiled pattern.
type ecmaRegexp struct {
	src    string
	re     *regexp2.Regexp
	re2    *regexp.Regexp // nil when the pattern is not RE2 syntax
	budget *patternBudget // nil: only PatternMatchTimeout bounds a match
}

func (r *ecmaRegexp) String() string { return r.src }

// MatchString is the validator's view: a timed-out match with no RE2 fallback reports no match; the violation is
// then re-classified as a resource limit (the budget noted it).
func (r *ecmaRegexp) MatchString(s string) bool {
	ok, timedOut := r.match(s)
	return ok && !timedOut
}

// match reports the answer and whether it could not be decided within PatternMatchTimeout.
func (r *ecmaRegexp) match(s string) (ok, timedOut bool) {
	timeout := PatternMatchTimeout
	if b := r.budget; b != nil && !b.until.IsZero() {
		timeout = min(timeout, time.Until(b.until))
	}
	if timeout > 0 {
		r.re.MatchTimeout = timeout // the budget's holder is the only one matching with r now
		m, err := r.re.MatchString(s)
		if err == nil {
			return m, false
		}
	}
	if r.re2 != nil {
		return r.re2.MatchString(s), false
	}
	if r.budget != nil {
		r.budget.note(r.src, s)
	}
	return false, true
}

// compileECMA returns the RegexpEngine installed in a compiler: its patterns share budget.
func compileECMA(budget *patternBudget) func(string) (jsonschema.Regexp, error) {
	return func(s string) (jsonschema.Regexp, error) {
		r, err := newECMA(s)
		if err != nil {
			return nil, err
		}
		r.budget = budget
		return r, nil
	}
}

func newECMA(s string) (*ecmaRegexp, error) {
	re, err := regexp2.Compile(s, regexp2.ECMAScript|regexp2.Unicode)
	if err != nil {
		var err2 error
		if re, err2 = regexp2.Compile(s, regexp2.ECMAScript); err2 != nil {
			return nil, fmt.Errorf("not an ECMA-262 regular expression: %w", err)
		}
	}
	re.MatchTimeout = PatternMatchTimeout
	r := &ecmaRegexp{src: s, re: re}
	if g, err := regexp.Compile(s); err == nil {
		r.re2 = g
	}
	return r, nil
}

// TrustedDialect reports whether this package holds a locally trusted meta-schema for dialect (2020-12, 2019-09,
// draft-07).
// Which dialects a client trusts is its policy ("A client agent applies policy for trusted publishers, schema
// identities, digests, versions, and dialects"), not a property of the agent.
func TrustedDialect(dialect string) bool { return trustedDialect(dialect) }
