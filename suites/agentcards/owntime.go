package agentcards

import (
	"regexp"
	"time"
)

// rfc3339 finds RFC 3339 date-times in a body.
var rfc3339 = regexp.MustCompile(`\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})`)

// ownTimeSlack is how far from its exchange a timestamp may lie and still be the answer's own time (clock skew
// between harness and host on one machine or one network).
const ownTimeSlack = 5 * time.Second

// ownTimeless returns a's body with every timestamp of the answer's own time (within ownTimeSlack of the exchange)
// replaced by one placeholder. a2a-go v2 stamps each error's ErrorInfo with the second it was made: two identical
// requests a second apart differ there, and the never-minted baseline, sent within the same second, cannot show
// it varying. A timestamp far from the exchange (an install date) is kept: it could tell agents apart.
func ownTimeless(a answer) []byte {
	if a.ex == nil || a.ex.Started.IsZero() {
		return a.body
	}
	from := a.ex.Started.Add(-ownTimeSlack)
	to := a.ex.Started.Add(time.Duration(a.ex.DurationMS*float64(time.Millisecond)) + ownTimeSlack)
	return rfc3339.ReplaceAllFunc(a.body, func(m []byte) []byte {
		t, err := time.Parse(time.RFC3339Nano, string(m))
		if err != nil || t.Before(from) || t.After(to) {
			return m
		}
		return []byte("\x00T")
	})
}
