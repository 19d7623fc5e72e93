package hostile

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/harness/harnesstest"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/suites"
)

// The credentials of the echo tests: one with / and + (JSON may escape both), one a 6-digit API key (low entropy:
// a marker that is a digest with a published salt gives it away offline).
const (
	echoToken  = "tok/en+Secret=0123456789abc"
	echoSecret = "Bearer " + echoToken
	echoAPIKey = "482915"
)

// echoForms are the forms an agent can echo a credential in; none may be written anywhere.
func echoForms() map[string]string {
	forms := map[string]string{}
	for _, s := range []string{echoSecret, echoToken} {
		forms["raw "+s] = s
		forms["json \\/ "+s] = strings.ReplaceAll(s, "/", `\/`)
		forms["json \\u002B "+s] = strings.ReplaceAll(s, "+", `\u002B`)
		forms["json \\u002b "+s] = strings.ReplaceAll(strings.ReplaceAll(s, "+", `\u002b`), "/", `\/`)
		forms["query "+s] = url.QueryEscape(s)
		forms["path "+s] = url.PathEscape(s)
		forms["base64 "+s] = base64.StdEncoding.EncodeToString([]byte(s))
		forms["base64url "+s] = base64.URLEncoding.EncodeToString([]byte(s))
	}
	return forms
}

// echoAgent is a remote agent that echoes every credential it receives, in every form, into everything it says:
// a redirect carrying the token in its URL, error messages, JSON-escaped and base64 members, a response header.
func echoAgent(t *testing.T) string {
	var base string
	base = harnesstest.RemoteListen(t, func(w http.ResponseWriter, r *http.Request) {
		auth := r.Header.Get("Authorization") + " " + r.Header.Get("X-Api-Key")
		w.Header().Set("X-Echo", auth)
		switch {
		case r.URL.Path == "/.well-known/agent-card.json":
			http.Redirect(w, r, "/card?access_token="+url.QueryEscape(echoToken)+"&key="+echoAPIKey, http.StatusFound)
			return
		case r.URL.Path == "/card":
			var exts []any
			for _, d := range catalog.Documents {
				exts = append(exts, map[string]any{"uri": d.URI})
			}
			card := map[string]any{"name": "echo", "description": "echoes credentials", "version": "1.0.0",
				"supportedInterfaces": []any{map[string]any{"url": base + "/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}},
				"capabilities":        map[string]any{"streaming": false, "extensions": exts},
				"defaultInputModes":   []string{"text/plain"}, "defaultOutputModes": []string{"text/plain"},
				"skills": []any{map[string]any{"id": "s", "name": "s", "description": "d", "tags": []string{"t"}}}}
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(card)
			return
		}
		esc := strings.ReplaceAll(strings.ReplaceAll(auth, "/", `\/`), "+", `\u002B`)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"invalid token %s","data":{"escaped":"%s","b64":"%s","url":"%s"}}}`,
			strings.ReplaceAll(auth, `"`, ``), esc, base64.StdEncoding.EncodeToString([]byte(auth)), url.QueryEscape(auth))
	})
	return base
}

func echoConfig() target.Config {
	return target.Config{Principals: map[string]target.Principal{
		"A": {Header: "Authorization", Value: echoSecret},
		"B": {Header: "X-Api-Key", Value: echoAPIKey}}}
}

// Issue 37.2 (HIGH): an agent echoing the credential puts it in no row detail (blocked and inapplicable ones
// included), no transcript line (redirect hops included), no Ginkgo report, in any form; the markers are keyed by a
// per-run key no output holds, so the same secret has another marker in another run.
func TestEchoedCredentialsNeverLeave(t *testing.T) {
	base := echoAgent(t)
	tgt, err := target.URL(base+"/.well-known/agent-card.json", echoConfig())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	start := time.Now()
	res, err := harness.Run(ctx, tgt, harness.Options{Suites: suites.All(), Seed: 1, SpecTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	x := res.Env.Client.Recorder().Redactor()
	var out bytes.Buffer
	for _, r := range res.Rows {
		fmt.Fprintf(&out, "%s %s %s\n", r.ID, r.Verdict, r.Detail)
	}
	if err := res.Env.Client.Recorder().WriteJSONL(&out); err != nil {
		t.Fatal(err)
	}
	rep, _ := json.Marshal(res.Report)
	out.Write(rep)
	written := out.String()
	for name, f := range echoForms() {
		if strings.Contains(written, f) {
			i := strings.Index(written, f)
			t.Errorf("%s is written: …%s…", name, written[max(0, i-80):min(len(written), i+len(f)+20)])
		}
	}
	if strings.Contains(written, x.Key()) {
		t.Error("the redaction key is written")
	}
	hops, echoed := 0, 0
	for _, ex := range res.Exchanges {
		hops += len(ex.Redirects)
		if bytes.Contains(ex.ResponseBody, []byte("invalid token")) {
			echoed++
		}
	}
	if hops == 0 || echoed == 0 || !strings.Contains(written, "[redacted hmac:") {
		t.Fatalf("nothing was echoed (%d redirect hops, %d echoing answers): the test tested nothing", hops, echoed)
	}
	if strings.Contains(written, "redacted sha256:") || x.Marker(echoAPIKey) == a2a.NewRedactor(echoAPIKey).Marker(echoAPIKey) {
		t.Error("markers are not keyed per run")
	}
	t.Logf("%d rows, %d exchanges (%d redirect hops, %d echoing answers), %s", len(res.Rows), len(res.Exchanges), hops, echoed, took.Round(time.Millisecond))
}
