package harness_test

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/harness/target"
)

// Issue 35, item 3: a transport failure is not a verdict. A spec whose assertion fails on a fetch that got no
// answer (a CA the operator did not configure, a closed port, a name that does not resolve) ends blocked, naming
// the URL and the remedy; whether it asserts on the exchange, formats the error, or makes it its positive control.
// A certificate that is invalid whatever the trust store (another name) is an answer: the row fails.
func TestTransportFailureBlocks(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("{}")) })
	untrusted := httptest.NewTLSServer(ok) // its certificate is not under the configured CA
	defer untrusted.Close()
	silent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	defer silent.Close() // accepts, and never answers within the call timeout
	closed := httptest.NewServer(ok)
	closedURL := closed.URL + "/doc"
	closed.Close() // a port nobody listens on any more: connection refused

	// A certificate the configured CA issued for 127.0.0.1 and localhost, served on 127.0.0.2: another name.
	leaf, err := testpki.IssueLeaf()
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Skipf("127.0.0.2 cannot be bound here: %v", err)
	}
	misnamed := &httptest.Server{Listener: ln, Config: &http.Server{Handler: ok}, TLS: &tls.Config{Certificates: []tls.Certificate{leaf}}}
	misnamed.StartTLS()
	defer misnamed.Close()

	// The name that does not resolve is answered by the dial hook as the resolver would: nothing leaves the host.
	defer a2a.SetDialHook(func(_ context.Context, _, addr string) error {
		if strings.HasPrefix(addr, "nohost.invalid:") {
			return &net.DNSError{Err: "no such host", Name: "nohost.invalid", IsNotFound: true}
		}
		return nil
	})()

	fetch := func(w *harness.W, url string) (*a2a.Exchange, error) {
		return w.Env().Client.HTTP(w.Ctx(), "GET", url, nil, a2a.Call{Note: "a document the row needs"})
	}
	cases := []struct {
		row, url, how string
		verdict, want string
	}{
		{"TE-3.2a", untrusted.URL + "/proposal.json", "check", harness.Blocked, "set caFile"},
		{"TE-3.2b", untrusted.URL + "/other.json", "failf", harness.Blocked, "set caFile"},
		{"TE-3.3a", closedURL, "check", harness.Blocked, "connection refused (not reachable from this run"},
		{"TE-3.3b", "https://nohost.invalid/person", "failf-noexchange", harness.Blocked, "does not resolve from this run"},
		{"TE-3.3c", untrusted.URL + "/control.json", "control", harness.Blocked, "set caFile"},
		// OR-3.4b's shape: a personEntry page whose host does not resolve, asserted on its exchange.
		{"TE-3.3e", "https://nohost.invalid/talk", "check", harness.Blocked, "does not resolve from this run"},
		{"TE-3.5a", silent.URL + "/slow.json", "check", harness.Blocked, "no answer within the call-timeout limit"},
		{"TE-3.3d", misnamed.URL + "/doc.json", "check", harness.ExecutedFail, "certificate is valid for"},
	}
	s := harness.Suite{Document: "terms",
		Applicable: func(context.Context, *harness.Env) (bool, string) { return true, "" },
		Register: func(e *harness.Env) {
			for _, c := range cases {
				harness.Spec(e, c.row, c.how, func(w *harness.W) {
					ex, err := fetch(w, c.url)
					switch c.how {
					case "check":
						w.Check(err == nil, "the document is served", fmt.Sprint(err), ex)
					case "failf":
						if err != nil {
							w.Failf(ex, "the document is served", "fetch: %v", err)
						}
					case "failf-noexchange": // a procedure that returns only its error
						if err != nil {
							w.Failf(nil, "the document is served", "the procedure stopped: %v", fmt.Errorf("fetching the person entry: %w", err))
						}
					case "control":
						w.Control(err == nil, "the valid document is served", fmt.Sprint(err), ex)
					}
					w.Check(true, "", "", nil)
				})
			}
		}}
	// A local target (its card on loopback), and the unresolvable host an origin the operator allowed.
	// The card itself answers (under the configured CA): a card nobody can read blocks the run before any spec.
	card, err := a2atest.Start(a2atest.Agent{Name: "plain"}, a2atest.Options{TLS: true})
	if err != nil {
		t.Fatal(err)
	}
	defer card.Close()
	tgt := &target.Target{Kind: target.KindURL, RootCAs: testpki.CAPool(), Agents: map[string]string{"terms": card.CardURL()},
		Config: target.Config{Limits: []byte(`{"allowOrigins":["https://nohost.invalid"]}`)}}
	var rows []string
	for _, c := range cases {
		rows = append(rows, c.row)
	}
	lim := a2a.DefaultLimits()
	lim.CallTimeout = 300 * time.Millisecond
	res, err := harness.Run(context.Background(), tgt, harness.Options{Suites: []harness.Suite{s}, Documents: []string{"terms"}, Rows: rows, Seed: 1, Limits: &lim})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]harness.RowVerdict{}
	for _, r := range res.Rows {
		got[r.ID] = r
	}
	for _, c := range cases {
		r := got[c.row]
		if r.Verdict != c.verdict || !strings.Contains(r.Detail, c.want) {
			t.Errorf("%s (%s): %s %q, want %s naming %q", c.row, c.how, r.Verdict, r.Detail, c.verdict, c.want)
		}
		if c.verdict == harness.Blocked && !strings.Contains(r.Detail, strings.SplitN(c.url, "/", 4)[2]) {
			t.Errorf("%s: the detail does not name the URL: %q", c.row, r.Detail)
		}
	}
	// One shared cause is named once: the three rows the untrusted CA blocked count under one cause.
	st, why := harness.Status(res.Rows)
	if st != harness.StatusFailed {
		t.Errorf("status %s, want failed (TE-3.3d failed on an answer)", st)
	}
	var blocked []harness.RowVerdict
	for _, r := range res.Rows {
		if r.Verdict == harness.Blocked {
			blocked = append(blocked, r)
		}
	}
	_, why = harness.Status(blocked)
	if !strings.Contains(why, "set caFile") || strings.Count(why, "set caFile") != 1 || !strings.Contains(why, "[3 rows]") {
		t.Errorf("incomplete reason %q: the untrusted CA must be one cause of 3 rows", why)
	}
}
