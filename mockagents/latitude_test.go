package mockagents_test

import (
	"bytes"
	"crypto/tls"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/mockagents"
	"github.com/extconf/extconf/sabotage"
)

// Every reference agent honours every cross-cutting latitude registered for its document: the served card says
// what the latitude says (no streaming, one interface, no cache headers) and an invalid credential gets the plain
// 401. The suites then prove, in the falsification run, that no row fails with it on.
func TestReferenceAgentsHonourCrossCuttingLatitudes(t *testing.T) {
	hc := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: testpki.CAPool()}}}
	get := func(t *testing.T, u string) (*http.Response, map[string]json.RawMessage) {
		t.Helper()
		resp, err := hc.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var card map[string]json.RawMessage
		b, _ := io.ReadAll(resp.Body)
		if err := json.Unmarshal(b, &card); err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		return resp, card
	}
	for _, id := range []sabotage.ID{sabotage.LatSyncOnly, sabotage.LatJSONRPCOnly, sabotage.LatHTTPJSONOnly, sabotage.LatNoCardCache, sabotage.LatPlain401} {
		l, _ := sabotage.LookupLatitude(string(id))
		t.Run(string(id), func(t *testing.T) {
			tgt, err := mockagents.Start(sabotage.MustParse(id), l.In(mockagents.Documents())...)
			if err != nil {
				t.Fatal(err)
			}
			defer tgt.Close()
			plain401s := 0
			for role, u := range tgt.Agents {
				if !strings.HasSuffix(u, a2a.CardPath) {
					continue // a control hook, not an agent
				}
				resp, card := get(t, u)
				var caps struct {
					Streaming bool `json:"streaming"`
				}
				_ = json.Unmarshal(card["capabilities"], &caps)
				var ifaces []a2a.AgentInterface
				_ = json.Unmarshal(card["supportedInterfaces"], &ifaces)
				switch id {
				case sabotage.LatSyncOnly:
					if caps.Streaming {
						t.Errorf("%s: the card still offers streaming", role)
					}
				case sabotage.LatJSONRPCOnly, sabotage.LatHTTPJSONOnly:
					want := a2a.BindingJSONRPC
					if id == sabotage.LatHTTPJSONOnly {
						want = a2a.BindingHTTPJSON
					}
					for _, i := range ifaces {
						if i.ProtocolBinding != want {
							t.Errorf("%s: the card lists %s %s", role, i.ProtocolBinding, i.URL)
						}
					}
				case sabotage.LatNoCardCache:
					for _, h := range []string{"Cache-Control", "ETag", "Last-Modified"} {
						if resp.Header.Get(h) != "" {
							t.Errorf("%s: the card carries %s", role, h)
						}
					}
				case sabotage.LatPlain401:
					for _, i := range ifaces {
						if i.ProtocolBinding != a2a.BindingJSONRPC {
							continue
						}
						body := `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"tenant":` + jsonString(i.Tenant) +
							`,"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"hi"}]}}}`
						req, _ := http.NewRequest(http.MethodPost, i.URL, bytes.NewReader([]byte(body)))
						req.Header.Set("Content-Type", "application/json")
						req.Header.Set(a2a.HeaderVersion, "1.0")
						req.Header.Set("Authorization", "Bearer extconf-invalid-credential")
						r, err := hc.Do(req)
						if err != nil {
							t.Fatal(err)
						}
						b, _ := io.ReadAll(r.Body)
						r.Body.Close()
						if r.StatusCode != http.StatusUnauthorized {
							continue // an agent that asks for no credential
						}
						plain401s++
						if r.Header.Get("WWW-Authenticate") == "" || json.Valid(b) || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/plain") {
							t.Errorf("%s: 401 is not plain: %s %q", role, r.Header.Get("Content-Type"), b)
						}
					}
				}
			}
			if id == sabotage.LatPlain401 && plain401s == 0 {
				t.Error("no reference agent refused an invalid credential")
			}
		})
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
