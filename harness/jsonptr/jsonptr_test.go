package jsonptr

import (
	"errors"
	"reflect"
	"testing"
)

func TestFormatSplitRoundTrip(t *testing.T) {
	toks := []string{"a/b", "c~d", "", "0"}
	p := Format(toks)
	if p != "/a~1b/c~0d//0" {
		t.Fatalf("Format = %q", p)
	}
	got, err := Split(p)
	if err != nil || !reflect.DeepEqual(got, toks) {
		t.Fatalf("Split(%q) = %q, %v", p, got, err)
	}
	for _, bad := range []string{"a", "/~2", "/~"} {
		if _, err := Split(bad); !errors.Is(err, ErrSyntax) {
			t.Errorf("Split(%q) = %v, want ErrSyntax", bad, err)
		}
	}
}

func TestResolveStepsInOrder(t *testing.T) {
	doc := map[string]any{"a": []any{"x", map[string]any{"~/": 1}}}
	if v, err := Resolve(doc, "/a/1/~0~1"); err != nil || v != 1 {
		t.Fatalf("Resolve = %v, %v", v, err)
	}
	// a missing member is reported before a later token's bad escape
	if _, err := Resolve(doc, "/b/~2"); err == nil || err.Error() != `no member "b"` {
		t.Fatalf("Resolve(/b/~2) = %v", err)
	}
	for _, p := range []string{"/a/01", "/a/-", "/a/2", "/a/0/x"} {
		if _, err := Resolve(doc, p); err == nil {
			t.Errorf("Resolve(%q) resolved", p)
		}
	}
}
