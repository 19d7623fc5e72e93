package evidence

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/extconf/extconf/harness/a2a"
)

// The self-check's top-level scan of a written line reads what the full check reads (id, method, url, seq,
// status, the body's digest) and accepts and refuses the same lines: escapes, nested objects, an id-like text in
// a note or a header, an edited line.
func TestScanWrittenAgreesWithFullCheck(t *testing.T) {
	rec := a2a.NewRecorder()
	rec.SetRedactor(a2a.NewRedactor())
	for _, e := range []*a2a.Exchange{
		{Method: "GET", URL: `https://127.0.0.1/a?q="x"\y`, Status: 200, Started: time.Unix(1, 0).UTC(),
			RequestHeader: http.Header{"Id": {`"id":"sha256:00"`}}, ResponseBody: []byte(`{"id":"sha256:00","x":"\"\\"}`)},
		{Method: "POST", URL: "https://127.0.0.1/b", Error: `boom "quoted" \ back`, Events: [][]byte{[]byte("e1"), nil},
			Note: `note with "id":"sha256:ab" inside`, Redirects: []string{"https://127.0.0.1/c"}, Truncated: true, Started: time.Unix(2, 5).UTC()},
		{Method: "GET", URL: "https://127.0.0.1/é", Status: 404, Started: time.Unix(3, 0).UTC()},
	} {
		rec.Add(e)
	}
	var buf bytes.Buffer
	if err := rec.WriteJSONL(&buf); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	for i, l := range lines {
		line := []byte(l)
		fast, idAt, idEnd, ok := scanWritten(i+1, line)
		if !ok {
			t.Fatalf("line %d: the scan refused a written line: %s", i+1, l)
		}
		if string(line[idAt:idEnd]) != `"`+fast.id+`"` {
			t.Errorf("line %d: id value at %d:%d is %s", i+1, idAt, idEnd, line[idAt:idEnd])
		}
		full, problem := parseExchangeLine(i+1, line)
		if problem != "" {
			t.Fatalf("line %d: %s", i+1, problem)
		}
		if fast != full {
			t.Errorf("line %d: scan %+v, full check %+v", i+1, fast, full)
		}
		if _, p := parseWrittenLine(i+1, line); p != "" {
			t.Errorf("line %d: %s", i+1, p)
		}
		edited := bytes.Replace(line, []byte(`"method":"`), []byte(`"method":"X`), 1)
		if _, p := parseWrittenLine(i+1, edited); p == "" {
			t.Errorf("line %d: an edited line passes", i+1)
		}
	}
	for _, bad := range []string{`{"id":"a","id":"b"}`, `{"id":"a"`, `{"id":"a",}`, `[1]`, `{"seq":x,"id":"a"}`} {
		if _, _, _, ok := scanWritten(1, []byte(bad)); ok {
			t.Errorf("%s: scanned as a written line", bad)
		}
	}
}
