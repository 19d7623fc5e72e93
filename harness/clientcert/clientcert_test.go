package clientcert

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/extconf/extconf/fixtures/testpki"
)

func TestLastReply(t *testing.T) {
	r, err := lastReply([]byte("progress…\n{\"outcome\":\"refused\",\"reason\":\"interface_invalid\"}\n\n"))
	if err != nil || r.Outcome != OutcomeRefused || r.Reason != "interface_invalid" {
		t.Errorf("%+v %v", r, err)
	}
	for _, bad := range []string{"", "\n \n", "done\n", `{"outcome":`} {
		if _, err := lastReply([]byte(bad)); err == nil {
			t.Errorf("%q: accepted", bad)
		}
	}
}

// The driver passes the contract's variables, reads the last line, and kills a client that outlives its timeout.
func TestDriver(t *testing.T) {
	d := Driver{Command: `echo noise; printf '{"outcome":"completed","report":{"card":"%s","t":"%s"}}\n' "$EXTCONF_CARD_URL" "$EXTCONF_TIMEOUT_SECONDS"`, Timeout: 5 * time.Second}
	inv := d.Run(context.Background(), map[string]string{EnvCardURL: "https://127.0.0.1:1/card"})
	if inv.Reply == nil || !strings.Contains(string(inv.Reply.Report), `"card":"https://127.0.0.1:1/card","t":"5"`) {
		t.Errorf("%+v", inv)
	}
	start := time.Now()
	inv = Driver{Command: "sleep 30 & sleep 30", Timeout: 500 * time.Millisecond}.Run(context.Background(), nil)
	if inv.Reply != nil || !strings.Contains(inv.Error, "did not finish") || time.Since(start) > 5*time.Second {
		t.Errorf("timeout: %+v after %s", inv, time.Since(start))
	}
}

// The proxy records what the client sends, serves the card naming its own origin, and passes calls through.
func TestProxy(t *testing.T) {
	var up *httptest.Server
	up = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"supportedInterfaces":[{"url":"`+up.URL+`/jsonrpc"}]}`)
			return
		}
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
	}))
	defer up.Close()
	cas := x509.NewCertPool()
	cas.AddCert(up.Certificate())
	cert, err := testpki.IssueLeaf()
	if err != nil {
		t.Fatal(err)
	}
	p, err := StartProxy(up.URL+"/.well-known/agent-card.json", cert, cas)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: testpki.CAPool()}}, Timeout: 5 * time.Second}
	resp, err := c.Get(p.CardURL)
	if err != nil {
		t.Fatal(err)
	}
	card, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	origin := strings.TrimSuffix(p.CardURL, "/.well-known/agent-card.json")
	if !strings.Contains(string(card), origin+"/jsonrpc") || strings.Contains(string(card), up.URL) {
		t.Errorf("card not rewritten: %s", card)
	}
	req, _ := http.NewRequest(http.MethodPost, origin+"/jsonrpc", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{}}`))
	req.Header.Set("A2A-Extensions", "urn:x")
	resp, err = c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	exs := p.Exchanges()
	if len(exs) != 2 || exs[1].Header.Get("A2A-Extensions") != "urn:x" || exs[1].Status != 200 {
		t.Fatalf("recorded %d: %+v", len(exs), exs)
	}
	if m, _ := exs[1].RPC(); m != "SendMessage" {
		t.Errorf("method %q", m)
	}
	if !strings.Contains(string(exs[0].RespBody), origin) {
		t.Errorf("recorded card %s", exs[0].RespBody)
	}
}
