package a2a

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Oversized response headers are the named, configurable limit max-header-bytes, not net/http's raw message.
func TestHeaderSizeIsANamedLimit(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Padding", strings.Repeat("x", 8<<10))
		w.WriteHeader(http.StatusOK)
	}))
	defer srv.Close()
	c := NewClient(Options{Limits: Limits{MaxHeaderBytes: 4 << 10}})
	_, err := c.HTTP(context.Background(), http.MethodGet, srv.URL+"/", nil, Call{})
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != LimitMaxHeaderBytes {
		t.Fatalf("err = %v, want limit exceeded: max-header-bytes", err)
	}
	if _, err := NewClient(Options{}).HTTP(context.Background(), http.MethodGet, srv.URL+"/", nil, Call{}); err != nil {
		t.Fatalf("the default bound refused 8 KiB of headers: %v", err)
	}
}
