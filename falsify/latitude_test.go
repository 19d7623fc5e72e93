package falsify

import (
	"testing"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/sabotage"
)

// A latitude runs with its operator's statement: a row it leaves blocked counts against it unless the latitude says
// why its operator cannot state what the row needs.
func TestLatitudeStatableBlockFails(t *testing.T) {
	l := sabotage.Latitude{ID: "or.lat.example", Unstatable: map[string]string{"OR-9.9": "x", "no JSONRPC interface": "y", "limits.nestingDepth": "z"}}
	cases := []struct {
		r    harness.RowVerdict
		want string
	}{
		{harness.RowVerdict{ID: "OR-3.6", Verdict: harness.Blocked, Detail: "documents.on-request.operator.consentToActions is missing: …"}, "documents.on-request.operator.consentToActions"},
		{harness.RowVerdict{ID: "OR-3.7", Verdict: harness.Blocked, Detail: "the agent declined it"}, "OR-3.7"},
		{harness.RowVerdict{ID: "OR-9.9", Verdict: harness.Blocked, Detail: "anything"}, ""},
		{harness.RowVerdict{ID: "IV-3.2a", Verdict: harness.Blocked, Detail: "endpoint: the card lists no JSONRPC interface"}, ""},
		{harness.RowVerdict{ID: "SI-12.2i", Verdict: harness.Blocked, Detail: "documents.schema-interface.limits.nestingDepth is missing: …"}, ""},
		{harness.RowVerdict{ID: "OR-3.8", Verdict: harness.Inapplicable, Detail: "declared absent"}, ""},
	}
	for _, c := range cases {
		if got := statableBlock(l, c.r); got != c.want {
			t.Errorf("%s %s %q: got %q, want %q", c.r.ID, c.r.Verdict, c.r.Detail, got, c.want)
		}
	}
}
