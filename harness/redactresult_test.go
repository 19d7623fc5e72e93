package harness

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/extconf/extconf/harness/a2a"
)

// Issue 37.2: blocked and inapplicable details quote the agent ("positive control failed: … invalid token <the
// credential>"); every row detail and every report file Ginkgo wrote is redacted, JSON-escaped echoes included.
func TestRedactResultCoversDetailsAndReports(t *testing.T) {
	const secret = "Bearer tok/en+Secret=0123456789abc"
	x := a2a.NewRedactor(secret)
	res := &Result{Rows: []RowVerdict{
		{ID: "a", Verdict: Blocked, Detail: "positive control failed: the agent answered: invalid token " + secret},
		{ID: "b", Verdict: Inapplicable, Detail: `the card says {"echo":"tok\/en\u002BSecret=0123456789abc"}`},
		{ID: "c", Verdict: Blocked, Detail: "redirected to /card?access_token=tok%2Fen%2BSecret%3D0123456789abc"},
	}}
	rep := filepath.Join(t.TempDir(), "report.json")
	if err := os.WriteFile(rep, []byte(`[{"Failure":{"Message":"invalid token tok\/en\u002bSecret=0123456789abc"}}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := redactResult(res, x, rep); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(rep)
	all := string(b)
	for _, r := range res.Rows {
		all += "\n" + r.Detail
	}
	if strings.Contains(all, "0123456789abc") {
		t.Errorf("a secret survived redaction:\n%s", all)
	}
	if strings.Count(all, "[redacted hmac:") < 4 {
		t.Errorf("not every echo was replaced by a marker:\n%s", all)
	}
}
