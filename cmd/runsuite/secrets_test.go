package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/extconf/extconf/mockagents"
	"github.com/extconf/extconf/sabotage"
)

// No configured credential lands in a file: the transcript, the bundle, JUnit and HTML carry only
// "[redacted hmac:…]" markers, and the bundle still verifies (the witness chain is over the redacted lines).
func TestSecretsNeverWritten(t *testing.T) {
	tgt, err := mockagents.Start(sabotage.Set{})
	if err != nil {
		t.Fatal(err)
	}
	var secrets []string
	for _, p := range tgt.Config.Principals {
		if len(p.Value) >= 8 {
			secrets = append(secrets, p.Value)
		}
	}
	tgt.Close()
	if len(secrets) == 0 {
		t.Fatal("the reference agents announce no credential: nothing to look for")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "bundle")
	code, stdout, stderr := runCLI("run", "--quiet", "--out", out, "--junit", filepath.Join(dir, "junit.xml"),
		"--html", filepath.Join(dir, "report.html"))
	if code != exitPass {
		t.Fatalf("run exit %d\n%s\n%s", code, stdout, stderr)
	}
	markers := 0
	_ = filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		b, _ := os.ReadFile(p)
		markers += bytes.Count(b, []byte("[redacted hmac:"))
		for _, s := range secrets {
			tok := s
			if _, after, ok := strings.Cut(s, " "); ok {
				tok = after
			}
			if bytes.Contains(b, []byte(tok)) {
				t.Errorf("%s holds a configured credential (%q…)", filepath.Base(p), tok[:4])
			}
		}
		return nil
	})
	if markers == 0 {
		t.Error("no redaction marker anywhere: the credentials were never sent, so nothing was shown")
	}
	if strings.Contains(stdout+stderr, secrets[0]) {
		t.Error("a credential was printed")
	}
	if code, vout, _ := runCLI("verify", filepath.Join(out, "bundle.json")); code != exitPass {
		t.Fatalf("the redacted bundle does not verify (exit %d):\n%s", code, vout)
	}
}
