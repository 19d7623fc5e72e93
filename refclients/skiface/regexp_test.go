package skiface

import (
	"strings"
	"testing"
	"time"
)

// #18: "pattern" is ECMA-262. Lookahead, backreferences, \u escapes and \c control escapes are valid patterns;
// RE2 rejected them and the schema became interface_invalid.
func TestECMAPatterns(t *testing.T) {
	cases := []struct {
		pattern   string
		good, bad string
	}{
		{`^(?=.*[0-9])[a-z0-9]+$`, `abc1`, `abc`},
		{`^(a+)-\1$`, `aa-aa`, `aa-a`},
		{`^\u0041+$`, `AAA`, `aaa`},
		{`^\cJ$`, "\n", "J"},
		{`^(?<!x)y$`, `y`, `xy`},
		{`^\p{L}+$`, `héllo`, `h3llo`},
		{`^[\-a]+\/$`, `-a/`, `b/`}, // identity escapes valid only without the u flag
	}
	for _, c := range cases {
		schema := `{"type":"object","properties":{"v":{"type":"string","pattern":` + jsonString(c.pattern) + `}},` +
			`"patternProperties":{` + jsonString(c.pattern) + `:{"type":"string"}}}`
		cs, err := CompileSchema(ref(schema), Limits{})
		if err != nil {
			t.Errorf("%s: a valid ECMA-262 pattern was refused: %v", c.pattern, err)
			continue
		}
		if vs := cs.Validate(map[string]any{"v": c.good}); len(vs) > 0 {
			t.Errorf("%s: %q should match: %v", c.pattern, c.good, vs)
		}
		if vs := cs.Validate(map[string]any{"v": c.bad}); len(vs) == 0 {
			t.Errorf("%s: %q should not match", c.pattern, c.bad)
		}
	}
	if _, err := CompileSchema(ref(`{"pattern":"(unclosed"}`), Limits{}); err == nil {
		t.Error("an invalid pattern compiled")
	}
	// format "regex" uses the same dialect.
	cs, err := CompileSchema(ref(`{"format":"regex"}`), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if vs := cs.Validate(`^(?=a)\1?$`); len(vs) > 0 {
		t.Errorf("format regex refused an ECMA-262 pattern: %v", vs)
	}
}

func jsonString(s string) string {
	b := strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)
	return `"` + b + `"`
}

// A catastrophic pattern ends: decided by RE2 when it is RE2 syntax, otherwise reported as a resource limit.
func TestCatastrophicPatternBounded(t *testing.T) {
	val := strings.Repeat("a", 64) + "b"
	start := time.Now()
	cs, err := CompileSchema(ref(`{"type":"string","pattern":"^(a|aa)+$"}`), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	vs := cs.Validate(val)
	if len(vs) != 1 || vs[0].Keyword != "pattern" {
		t.Errorf("RE2-decidable catastrophic pattern: %+v", vs)
	}
	if vs := cs.Validate(strings.Repeat("a", 64)); len(vs) > 0 {
		t.Errorf("RE2 fallback refused a match: %v", vs)
	}
	cs, err = CompileSchema(ref(`{"type":"string","pattern":"^(a|aa)+(?!x)$"}`), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	vs = cs.Validate(val)
	if len(vs) != 1 || vs[0].Keyword != "resource_limit" {
		t.Errorf("undecidable catastrophic pattern: %+v", vs)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %s", d)
	}
}

// Formats: the JSON Schema Validation vocabulary is asserted (idn-email, idn-hostname included); the library's
// extra formats outside it are not.
func TestFormatVocabulary(t *testing.T) {
	cases := []struct {
		format    string
		good, bad string
	}{
		{"idn-hostname", "bücher.example", "-bad-.example"},
		{"idn-email", "用户@例子.广告", "no-at-sign"},
		{"idn-email", "user@[IPv6:::1]", "user@"},
		{"semver", "not a semver", ""},
		{"period", "not a period", ""},
	}
	for _, c := range cases {
		cs, err := CompileSchema(ref(`{"format":"`+c.format+`"}`), Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if vs := cs.Validate(c.good); len(vs) > 0 {
			t.Errorf("%s: %q refused: %v", c.format, c.good, vs)
		}
		if c.bad != "" {
			if vs := cs.Validate(c.bad); len(vs) == 0 {
				t.Errorf("%s: %q accepted", c.format, c.bad)
			}
		}
	}
}
