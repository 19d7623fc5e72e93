package skiface

import (
	"fmt"
	"regexp"
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

// ecmaRegexp is one compiled pattern.
type ecmaRegexp struct {
	src string
	re  *regexp2.Regexp
	re2 *regexp.Regexp // nil when the pattern is not RE2 syntax
}

func (r *ecmaRegexp) String() string { return r.src }

// MatchString is the validator's view: a timed-out match with no RE2 fallback reports no match; the violation is
// then re-classified as a resource limit by patternTimedOut.
func (r *ecmaRegexp) MatchString(s string) bool {
	ok, timedOut := r.match(s)
	return ok && !timedOut
}

// match reports the answer and whether it could not be decided within PatternMatchTimeout.
func (r *ecmaRegexp) match(s string) (ok, timedOut bool) {
	m, err := r.re.MatchString(s)
	if err == nil {
		return m, false
	}
	if r.re2 != nil {
		return r.re2.MatchString(s), false
	}
	return false, true
}

// compileECMA is the RegexpEngine installed in every compiler.
func compileECMA(s string) (jsonschema.Regexp, error) {
	r, err := newECMA(s)
	if err != nil {
		return nil, err
	}
	return r, nil
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

// patternTimedOut reports whether matching value against pattern cannot be decided within the time bound.
func patternTimedOut(pattern, value string) bool {
	r, err := newECMA(pattern)
	if err != nil {
		return false
	}
	_, t := r.match(value)
	return t
}

// TrustedDialect reports whether this package holds a locally trusted meta-schema for dialect (2020-12 only).
// Which dialects a client trusts is its policy ("A client agent applies policy for trusted publishers, schema
// identities, digests, versions, and dialects"), not a property of the agent.
func TrustedDialect(dialect string) bool { return trustedDialect(dialect) }
