package a2a

import (
	"bytes"
	"net/http"
	"testing"
	"time"
)

// A recorder with a sink writes, as each exchange is recorded, exactly the lines WriteJSONL writes afterwards, and
// the same IDs a recorder without one assigns.
func TestSinkWritesTheTranscript(t *testing.T) {
	mk := func() []*Exchange {
		return []*Exchange{
			{Method: "GET", URL: "https://127.0.0.1/a", Status: 200, Started: time.Unix(1, 0).UTC(), RequestHeader: http.Header{"Authorization": {"Bearer sekrit-token"}},
				ResponseBody: []byte(`{"echo":"Bearer sekrit-token"}`)},
			{Method: "POST", URL: "https://127.0.0.1/b", Error: `boom "quoted"`, Events: [][]byte{[]byte("e1")}, Note: "n", Started: time.Unix(2, 0).UTC()},
		}
	}
	plain, sunk := NewRecorder(), NewRecorder()
	x := NewRedactor("Bearer sekrit-token")
	plain.SetRedactor(x)
	sunk.SetRedactor(x)
	var sink bytes.Buffer
	sunk.SetSink(&sink)
	for _, e := range mk() {
		plain.Add(e)
	}
	for _, e := range mk() {
		sunk.Add(e)
	}
	var want bytes.Buffer
	if err := plain.WriteJSONL(&want); err != nil {
		t.Fatal(err)
	}
	if sink.String() != want.String() {
		t.Errorf("sink:\n%s\nWriteJSONL:\n%s", sink.String(), want.String())
	}
	lens, err := sunk.Sunk()
	if err != nil || len(lens) != 2 || lens[0]+lens[1] != sink.Len() {
		t.Errorf("lens %v (%v), %d bytes written", lens, err, sink.Len())
	}
	for i, e := range sunk.All() {
		if e.ID != plain.All()[i].ID {
			t.Errorf("exchange %d: id %s with a sink, %s without", i, e.ID, plain.All()[i].ID)
		}
	}
	if bytes.Contains(sink.Bytes(), []byte("sekrit")) {
		t.Error("a secret reached the sink")
	}
}
