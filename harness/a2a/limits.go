package a2a

import (
	"errors"
	"time"
)

// Limits bound every exchange with a target. The harness treats every target as hostile, so nothing is unbounded.
type Limits struct {
	ConnectTimeout time.Duration // dial + TLS handshake
	CallTimeout    time.Duration // whole non-streaming exchange, headers to last byte
	StreamTimeout  time.Duration // whole streaming exchange
	MaxBody        int64         // response body cap, also the cap on a whole SSE stream
	MaxSSEEvent    int           // one SSE event's data
	MaxSSEEvents   int           // events per stream
	MaxRedirects   int           // redirects followed, and only to the same origin
	MaxJSONDepth   int           // array/object nesting of a fetched card or JSON document
	MaxCardSkills  int           // skills[] entries of one Agent Card
	// MaxRunBytes bounds the bytes a whole run holds (every recorded body): past it no further request is sent,
	// so a target answering every call with a body just under MaxBody cannot grow the run without end.
	MaxRunBytes int64
	// MaxHeaderBytes bounds a response's header section (status line and header fields).
	MaxHeaderBytes int64
}

// DefaultLimits returns the limits used for any zero field of Options.Limits.
func DefaultLimits() Limits {
	return Limits{
		ConnectTimeout: 5 * time.Second,
		CallTimeout:    10 * time.Second,
		StreamTimeout:  15 * time.Second,
		MaxBody:        8 << 20,
		MaxSSEEvent:    1 << 20,
		MaxSSEEvents:   10000,
		MaxRedirects:   5,
		MaxJSONDepth:   128,
		MaxCardSkills:  1000,
		MaxRunBytes:    64 << 20,
		MaxHeaderBytes: 64 << 10,
	}
}

// withDefaults fills zero (or negative) fields from DefaultLimits.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	orDefault(&l.ConnectTimeout, d.ConnectTimeout)
	orDefault(&l.CallTimeout, d.CallTimeout)
	orDefault(&l.StreamTimeout, d.StreamTimeout)
	orDefault(&l.MaxBody, d.MaxBody)
	orDefault(&l.MaxSSEEvent, d.MaxSSEEvent)
	orDefault(&l.MaxSSEEvents, d.MaxSSEEvents)
	orDefault(&l.MaxRedirects, d.MaxRedirects)
	orDefault(&l.MaxJSONDepth, d.MaxJSONDepth)
	orDefault(&l.MaxCardSkills, d.MaxCardSkills)
	orDefault(&l.MaxRunBytes, d.MaxRunBytes)
	orDefault(&l.MaxHeaderBytes, d.MaxHeaderBytes)
	return l
}

// orDefault sets a zero or negative limit to its default.
func orDefault[T int | int64 | time.Duration](v *T, d T) {
	if *v <= 0 {
		*v = d
	}
}

// Sentinel errors; the ones for limits are reached through *LimitError.
var (
	ErrBodyTooLarge      = errors.New("response body too large")
	ErrTimeout           = errors.New("timeout")
	ErrRedirectOffOrigin = errors.New("redirect to another origin refused")
	ErrTooManyRedirects  = errors.New("too many redirects")
	ErrSSEEventTooLarge  = errors.New("SSE event too large")
	ErrTooManySSEEvents  = errors.New("too many SSE events")
	ErrContentType       = errors.New("unexpected content type")
	ErrInvalidJSON       = errors.New("invalid JSON")
	ErrURLRefused        = errors.New("URL refused")
	ErrStatus            = errors.New("unexpected HTTP status")
	ErrJSONTooDeep       = errors.New("JSON nested too deep")
	ErrTooManySkills     = errors.New("too many skills on the card")
)

// Names of the limits as they appear in LimitError.Limit.
const (
	LimitConnectTimeout = "connect-timeout"
	LimitCallTimeout    = "call-timeout"
	LimitStreamTimeout  = "stream-timeout"
	LimitMaxBody        = "max-body"
	LimitMaxSSEEvent    = "max-sse-event"
	LimitMaxSSEEvents   = "max-sse-events"
	LimitMaxRedirects   = "max-redirects"
	LimitMaxJSONDepth   = "max-json-depth"
	LimitMaxCardSkills  = "max-card-skills"
	LimitMaxRunBytes    = "max-run-bytes"
	LimitMaxHeaderBytes = "max-header-bytes"
)

// LimitError reports a violated limit: "limit exceeded: max-body (8388608 bytes) …".
type LimitError struct {
	Limit  string // one of the Limit* names
	Detail string // the bound in parentheses, then what crossed it
}

func (e *LimitError) Error() string { return "limit exceeded: " + e.Limit + " " + e.Detail }

// Unwrap lets errors.Is match the sentinel of the limit.
func (e *LimitError) Unwrap() error {
	switch e.Limit {
	case LimitConnectTimeout, LimitCallTimeout, LimitStreamTimeout:
		return ErrTimeout
	case LimitMaxBody:
		return ErrBodyTooLarge
	case LimitMaxSSEEvent:
		return ErrSSEEventTooLarge
	case LimitMaxSSEEvents:
		return ErrTooManySSEEvents
	case LimitMaxRedirects:
		return ErrTooManyRedirects
	case LimitMaxJSONDepth:
		return ErrJSONTooDeep
	case LimitMaxCardSkills:
		return ErrTooManySkills
	}
	return nil
}
