package hostile

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"
	"unicode/utf8"
)

// TestBehavioursMisbehave checks, with a plain client, that each behaviour does what it is named for.
func TestBehavioursMisbehave(t *testing.T) {
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, b := range Behaviours() {
		t.Run(string(b), func(t *testing.T) {
			a, err := Start(b)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			// The slow behaviours are judged within 300 ms; the others get room for a loaded machine (16 MiB of
			// a huge body is a size, not a speed, check).
			bound := 10 * time.Second
			if b == NeverAnswers || b == OneBytePerSecond {
				bound = 300 * time.Millisecond
			}
			ctx, cancel := context.WithTimeout(context.Background(), bound)
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, a.CardURL(), nil)
			resp, err := noRedirect.Do(req)
			if b == NeverAnswers {
				if err == nil {
					t.Fatalf("answered %d", resp.StatusCode)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
			switch b {
			case OneBytePerSecond:
				if len(body) > 2 {
					t.Fatalf("%d bytes in 300ms", len(body))
				}
			case HugeBody:
				if resp.ContentLength != HugeBodySize || len(body) != 16<<20 {
					t.Fatalf("Content-Length %d, read %d", resp.ContentLength, len(body))
				}
			case RedirectLoop, RedirectOffOrig, RedirectMetadata:
				if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") == "" {
					t.Fatalf("status %d, Location %q", resp.StatusCode, resp.Header.Get("Location"))
				}
			case InvalidUTF8:
				if utf8.Valid(body) || !json.Valid(body) {
					t.Fatal("not JSON with invalid UTF-8")
				}
			case DuplicateMembers:
				var c struct{ Name string }
				if json.Unmarshal(body, &c) != nil || c.Name != "Evil agent" || !bytes.Contains(body, []byte(`"name":"Benign agent"`)) {
					t.Fatalf("not a card with two names: %s", body[:200])
				}
			case DeepNesting:
				if !bytes.Contains(body, bytes.Repeat([]byte("["), NestingDepth)) {
					t.Fatal("not nested")
				}
			case HugeNumbers:
				if !bytes.Contains(body, []byte("1e400")) || !json.Valid(body) {
					t.Fatal("no 1e400")
				}
			default:
				var c struct {
					Skills []json.RawMessage `json:"skills"`
				}
				if err := json.Unmarshal(body, &c); err != nil || len(c.Skills) == 0 {
					t.Fatalf("not a card: %v", err)
				}
				if b == ManySkills && len(c.Skills) != SkillCount {
					t.Fatalf("%d skills", len(c.Skills))
				}
			}
		})
	}
}

// TestEndlessSSENeverEnds reads the stream for a while and sees it still open.
func TestEndlessSSENeverEnds(t *testing.T) {
	a, err := Start(EndlessSSE)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	body := `{"jsonrpc":"2.0","id":1,"method":"SendStreamingMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"x"}]}}}`
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, a.URL()+"/jsonrpc", bytes.NewReader([]byte(body)))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if err == nil || n == 0 {
		t.Fatalf("the stream ended after %d bytes (err %v)", n, err)
	}
	if resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatal(resp.Header.Get("Content-Type"))
	}
}
