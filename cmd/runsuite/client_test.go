package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// runsuite client checks its usage before anything starts, and lists its scenarios.
func TestClientUsage(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"client"}, &out, &errb); code != exitUsage || !strings.Contains(errb.String(), "--cmd is required") {
		t.Errorf("no --cmd: exit %d, %s", code, errb.String())
	}
	if code := run(context.Background(), []string{"client", "--cmd", "x", "--suite", "nope"}, &out, &errb); code != exitUsage {
		t.Errorf("unknown document: exit %d", code)
	}
	if code := run(context.Background(), []string{"client", "--cmd", "x", "--tier", "third-party"}, &out, &errb); code != exitUsage {
		t.Errorf("third-party without --as/--sign-key: exit %d", code)
	}
	out.Reset()
	if code := run(context.Background(), []string{"client", "--list"}, &out, &errb); code != exitPass || !strings.Contains(out.String(), "si.invoke.describe-tampered") {
		t.Errorf("--list: exit %d, %s", code, out.String())
	}
}
