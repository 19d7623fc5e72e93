package a2a

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"testing/iotest"
)

// FuzzDecodeRPC: JSON-RPC response decoding and the typed result decoders never panic; a decoded response came
// from well-formed JSON.
func FuzzDecodeRPC(f *testing.F) {
	f.Add([]byte(rpcOK))
	f.Add([]byte(`{"jsonrpc":"2.0","id":"x","error":{"code":-32601,"message":"nope","data":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"METHOD_NOT_FOUND"}]}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{"message":{"messageId":"m","role":"ROLE_AGENT","parts":[{"text":"hi"},{"data":{"a":[1,2]}},{"raw":"AAE="},{"url":"https://x"}]}}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{"statusUpdate":{"taskId":"t","status":{"state":"TASK_STATE_WORKING"}}}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{"task":{"id":"t"}}} trailing`))
	for _, name := range []string{"task", "describe-result"} {
		if b, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "schemaiface", "example", name+".json")); err == nil {
			f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{"task":` + string(b) + `}}`))
			f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":` + string(b) + `}`))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := decodeRPC(b, "fuzz %d", 0)
		if err != nil {
			if !errors.Is(err, ErrInvalidJSON) {
				t.Fatalf("decoding error does not wrap ErrInvalidJSON: %v", err)
			}
			return
		}
		if !json.Valid(b) {
			t.Fatalf("decoded a response from invalid JSON: %q", b)
		}
		if r.Result == nil {
			return
		}
		_ = decodeResult("SendMessage", r, new(SendResult))
		_ = decodeResult("SendStreamingMessage", r, new(StreamEvent))
		_ = decodeResult("GetTask", r, new(Task))
		var card AgentCard
		if decodeResult("GetExtendedAgentCard", r, &card) == nil {
			_ = checkCardSize(&card, DefaultLimits(), "fuzz")
		}
	})
}

// FuzzReadSSE: the event-stream parser never panics, honours both limits, and reads the same events whether the
// bytes arrive at once or one by one.
func FuzzReadSSE(f *testing.F) {
	f.Add([]byte("data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n"))
	f.Add([]byte("\xEF\xBB\xBFevent: x\r\nid: 7\r\ndata: a\r\ndata: b\r\n\r\n: keep-alive\n\ndata:\n\n"))
	f.Add([]byte("data: one\rdata: two\r\r"))
	f.Add([]byte("data: never terminated"))
	f.Add([]byte(": only comments\n: more\n"))
	f.Add([]byte("data: " + string(bytes.Repeat([]byte("x"), 300)) + "\n\n"))
	f.Add([]byte("id: a\x00b\ndata: c\n\n"))
	const maxEvent, maxEvents = 256, 8
	read := func(b []byte, oneByte bool) ([]SSEEvent, error) {
		var evs []SSEEvent
		r := bytes.NewReader(b)
		var err error
		if oneByte {
			err = ReadSSE(iotest.OneByteReader(r), maxEvent, maxEvents, func(e SSEEvent) { evs = append(evs, e) })
		} else {
			err = ReadSSE(r, maxEvent, maxEvents, func(e SSEEvent) { evs = append(evs, e) })
		}
		return evs, err
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		whole, err1 := read(b, false)
		bytewise, err2 := read(b, true)
		if len(whole) > maxEvents {
			t.Fatalf("%d events over the limit of %d", len(whole), maxEvents)
		}
		for _, e := range whole {
			if len(e.Data) > maxEvent {
				t.Fatalf("an event of %d bytes over the limit of %d", len(e.Data), maxEvent)
			}
		}
		var le *LimitError
		if err1 != nil && !errors.As(err1, &le) {
			t.Fatalf("a non-limit error from an in-memory stream: %v", err1)
		}
		if (err1 == nil) != (err2 == nil) || !reflect.DeepEqual(whole, bytewise) {
			t.Fatalf("whole and byte-by-byte reads differ:\n%v %q\n%v %q", err1, whole, err2, bytewise)
		}
	})
}
