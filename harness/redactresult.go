package harness

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/extconf/extconf/harness/a2a"
	gtypes "github.com/onsi/ginkgo/v2/types"
)

// redactResult applies the run's redactor to every string of res that leaves the process: each row's detail
// (blocked and inapplicable details quote the agent's own words: "invalid token <the credential>"), the
// Ginkgo report (failure messages, captured output) and the report files Ginkgo wrote itself (--json). The
// transcript is redacted as it is recorded (a2a.Recorder); the bundle, JUnit, HTML and stdout are made from these.
func redactResult(res *Result, x *a2a.Redactor, files ...string) error {
	if x == nil || res == nil {
		return nil
	}
	for i := range res.Rows {
		res.Rows[i].Detail = x.String(res.Rows[i].Detail)
	}
	if b, err := json.Marshal(res.Report); err == nil {
		if red := x.Bytes(b); !bytes.Equal(red, b) {
			var rep gtypes.Report
			if json.Unmarshal(red, &rep) == nil {
				res.Report = rep
			}
		}
	}
	for _, f := range files {
		if f == "" {
			continue
		}
		if err := redactFile(f, x); err != nil {
			return err
		}
	}
	return nil
}

// redactFile rewrites a report file Ginkgo wrote with its secrets replaced (a temporary name, then a rename: the
// final name never holds a half-written file).
func redactFile(path string, x *a2a.Redactor) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil // Ginkgo wrote none (an interrupted run): nothing to redact
	}
	red := x.Bytes(b)
	if bytes.Equal(red, b) {
		return nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".redact-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(red); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
