package a2a

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

func TestCheckIJSON(t *testing.T) {
	ok := []string{`{}`, `[]`, `{"a":{"a":1},"b":[{"a":2},{"a":3}]}`, `"x"`, `1e308`, `-0`, `1e-400`, `{"\u0061":1,"b":"é"}`,
		`{"a":"[[[[{{{{"}`, "  {\"a\" : [1, 2] }\n"}
	for _, s := range ok {
		if err := CheckIJSON([]byte(s), 4); err != nil {
			t.Errorf("CheckIJSON(%s) = %v", s, err)
		}
	}
	bad := []struct{ in, want string }{
		{`[[[[[1]]]]]`, "limit exceeded: max-json-depth (4 levels): nesting reaches 5"},
		{`{"a":{"b":{"c":{"d":{}}}}}`, "max-json-depth"},
		{"{\"a\":\"\xff\"}", "invalid UTF-8 at byte 6"},
		{`{"a":1,"a":2}`, `duplicate member name "a"`},
		{`{"a":1,"\u0061":2}`, `duplicate member name "a"`},
		{`{"x":[{"a":1,"b":{"a":1,"a":1}}]}`, `duplicate member name "a"`},
		{`{"n":1e400}`, "number 1e400"},
		{`[-1e999]`, "beyond the IEEE 754 double range"},
		{`{"a":1} {}`, "not well-formed"},
		{`{"a":}`, "not well-formed"},
		{``, "not well-formed"},
	}
	for _, c := range bad {
		err := CheckIJSON([]byte(c.in), 4)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("CheckIJSON(%q) = %v, want %q", c.in, err, c.want)
		}
	}
	var le *LimitError
	if err := CheckIJSON([]byte(strings.Repeat("[", 100000)), 128); !errors.As(err, &le) || le.Limit != LimitMaxJSONDepth || !errors.Is(err, ErrJSONTooDeep) {
		t.Errorf("deep unterminated nesting: %v", err)
	}
	if err := CheckIJSON([]byte(`{"a":1,"a":2}`), 4); !errors.Is(err, ErrInvalidJSON) {
		t.Errorf("a duplicate does not wrap ErrInvalidJSON: %v", err)
	}
}

func TestFetchCardRefusesAmbiguousAndOversizedCards(t *testing.T) {
	body := map[string]string{
		"/dup":    `{"name":"Benign","name":"Evil","skills":[]}`,
		"/skills": `{"name":"n","skills":[{"id":"a"},{"id":"b"},{"id":"c"}]}`,
		"/ok":     `{"name":"n","skills":[{"id":"a"},{"id":"b"}]}`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(body[r.URL.Path]))
	}))
	defer srv.Close()
	lim := shortLimits()
	lim.MaxCardSkills = 2
	c := newTestClient(t, Options{Limits: lim})
	if _, _, err := c.FetchCard(context.Background(), srv.URL+"/dup", Call{}); !errors.Is(err, ErrInvalidJSON) || !strings.Contains(err.Error(), `duplicate member name "name"`) {
		t.Errorf("duplicate members: %v", err)
	}
	_, ex, err := c.FetchCard(context.Background(), srv.URL+"/skills", Call{})
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != LimitMaxCardSkills || !errors.Is(err, ErrTooManySkills) || ex.Error == "" {
		t.Errorf("3 skills over a limit of 2: %v", err)
	}
	if card, _, err := c.FetchCard(context.Background(), srv.URL+"/ok", Call{}); err != nil || len(card.Skills) != 2 {
		t.Errorf("2 skills: %v", err)
	}
}

func TestDialHookSeesEveryClient(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(rpcOK)) }))
	defer srv.Close()
	var mu sync.Mutex
	var seen []string
	before := newTestClient(t, Options{}) // built before the hook: still watched
	restore := SetDialHook(func(_ context.Context, _, addr string) error {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, addr)
		if h, _, _ := net.SplitHostPort(addr); h != "127.0.0.1" {
			return errors.New("off loopback")
		}
		return nil
	})
	d := &net.Dialer{}
	custom := newTestClient(t, Options{DialContext: d.DialContext}) // a client with its own dialer: watched too
	if _, err := before.HTTP(context.Background(), http.MethodGet, srv.URL, nil, Call{}); err != nil {
		t.Fatal(err)
	}
	if _, err := custom.HTTP(context.Background(), http.MethodGet, "http://192.0.2.1:9/", nil, Call{}); err == nil || !strings.Contains(err.Error(), "off loopback") {
		t.Errorf("the hook did not refuse: %v", err)
	}
	restore()
	if _, err := custom.HTTP(context.Background(), http.MethodGet, srv.URL+"/again", nil, Call{Header: http.Header{"Connection": {"close"}}}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 2 || seen[1] != "192.0.2.1:9" {
		t.Errorf("hook saw %v, want the loopback dial and 192.0.2.1:9, nothing after restore", seen)
	}
}
