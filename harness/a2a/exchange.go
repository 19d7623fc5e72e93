package a2a

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// Exchange is one HTTP request and its response as seen on the wire: the unit of evidence.
type Exchange struct {
	ID             string      `json:"id"`  // "sha256:" + hex SHA-256 of the JCS form of this record with ID empty
	Seq            int         `json:"seq"` // order within the recorder, from 1
	Note           string      `json:"note,omitempty"`
	Method         string      `json:"method"`
	URL            string      `json:"url"`
	Redirects      []string    `json:"redirects,omitempty"` // each redirect hop requested (followed or refused)
	RequestHeader  http.Header `json:"requestHeader"`
	RequestBody    []byte      `json:"requestBody,omitempty"`
	Status         int         `json:"status"`
	ResponseHeader http.Header `json:"responseHeader,omitempty"`
	ResponseBody   []byte      `json:"responseBody,omitempty"` // raw bytes as received, up to the cap
	Events         [][]byte    `json:"events,omitempty"`       // SSE data payloads in order
	Truncated      bool        `json:"truncated,omitempty"`    // the body's end was not seen
	Started        time.Time   `json:"started"`
	DurationMS     float64     `json:"durationMs"`
	Error          string      `json:"error,omitempty"`

	unreached *Unreachable // the transport failure that left it without an answer (not recorded: Error says it)
}

// Summary is one line for failure messages: "ex#3 sha256:ab12… POST https://127.0.0.1:1234/ → 200 (note)".
func (e *Exchange) Summary() string {
	if e == nil {
		return "ex#? (no exchange)"
	}
	id := e.ID
	if len(id) > len("sha256:")+12 {
		id = id[:len("sha256:")+12] + "…"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "ex#%d %s %s %s → ", e.Seq, id, e.Method, e.URL)
	if e.Status != 0 {
		fmt.Fprintf(&b, "%d", e.Status)
	} else {
		b.WriteString("no response")
	}
	if e.Note != "" {
		fmt.Fprintf(&b, " (%s)", e.Note)
	}
	if e.Error != "" {
		fmt.Fprintf(&b, " [error: %s]", e.Error)
	}
	return b.String()
}

// computeID is the digest of the record's canonical form with ID empty.
func (e *Exchange) computeID() string {
	var id string
	e.withBlankForm(func(form []byte, sum [sha256.Size]byte) {
		const prefix = "sha256:"
		var b [len(prefix) + 2*sha256.Size]byte
		copy(b[:], prefix)
		hex.Encode(b[len(prefix):], sum[:])
		id = string(b[:])
	})
	return id
}

// withBlankForm hands f the record's canonical form with ID empty and its SHA-256. The form is built in a pooled
// buffer, valid only during f: a fresh one per exchange was a fifth of the client's allocated bytes.
func (e *Exchange) withBlankForm(f func(form []byte, sum [sha256.Size]byte)) {
	saved := e.ID
	e.ID = ""
	bp := canonicalBufs.Get().(*[]byte)
	buf := e.appendCanonical((*bp)[:0])
	e.ID = saved
	f(buf, sha256.Sum256(buf))
	if cap(buf) <= maxPooledCanonical {
		*bp = buf
		canonicalBufs.Put(bp)
	}
}

// sinkLine writes the record's transcript line to w and returns its ID and the line's length; the first write
// error is kept in *err (later lines are not written). The ID member is the first `,"id":""` of the form with ID
// empty: only durationMs, error and events precede it, and no unescaped quote can occur inside those.
func (e *Exchange) sinkLine(w io.Writer, err *error) (id string, n int) {
	e.withBlankForm(func(buf []byte, sum [sha256.Size]byte) {
		id = "sha256:" + hex.EncodeToString(sum[:])
		const blank = `,"id":""`
		k := bytes.Index(buf, []byte(blank)) + len(blank) - 1 // at the closing quote of the empty id
		n = len(buf) + len(id) + 1
		for _, part := range [][]byte{buf[:k], []byte(id), buf[k:], {'\n'}} {
			if *err == nil {
				_, *err = w.Write(part)
			}
		}
	})
	return id, n
}

// canonicalBufs holds the buffers computeID builds canonical forms in; one larger than maxPooledCanonical (a big
// body) is left to the collector rather than kept.
var canonicalBufs = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

const maxPooledCanonical = 256 << 10

// Recorder keeps every exchange of a run in order. Safe for concurrent use.
type Recorder struct {
	mu     sync.Mutex
	all    []*Exchange
	redact *Redactor
	held   int64      // body bytes of every exchange recorded: what the run holds
	next   func() int // the Seq source when the run is shared with other processes (nil: 1, 2, …)
	sink   io.Writer  // where each transcript line is written as it is recorded (nil: none)
	lens   []int      // the length of each line written to sink
	err    error      // the first error writing to sink
}

// SetSink makes the recorder write each exchange's transcript line (as WriteJSONL would) to w the moment it is
// recorded: the canonical form built for its ID is the line, so it is never built twice.
func (r *Recorder) SetSink(w io.Writer) {
	r.mu.Lock()
	r.sink = w
	r.mu.Unlock()
}

// Sunk is the length of each line written to the sink, in Seq order, and the first error writing one.
func (r *Recorder) Sunk() ([]int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.lens), r.err
}

// SetSeqSource makes the recorder number exchanges from next (called under the recorder's lock, so this
// recorder's exchanges keep increasing numbers): the documents of one run recorded by several processes then
// share one sequence, and their transcripts merge by Seq without renumbering (Seq is inside each exchange's ID).
func (r *Recorder) SetSeqSource(next func() int) {
	r.mu.Lock()
	r.next = next
	r.mu.Unlock()
}

// Held is the number of body bytes the recorded exchanges hold.
func (r *Recorder) Held() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.held
}

// SetRedactor makes every exchange recorded from now on identified, and written, in its redacted form.
func (r *Recorder) SetRedactor(x *Redactor) {
	r.mu.Lock()
	r.redact = x
	r.mu.Unlock()
}

// Redactor is the recorder's redactor (nil: nothing is redacted).
func (r *Recorder) Redactor() *Redactor {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.redact
}

// NewRecorder returns an empty recorder.
func NewRecorder() *Recorder { return &Recorder{} }

// Add assigns the exchange its Seq, then its ID, and keeps it.
func (r *Recorder) Add(e *Exchange) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.next != nil {
		e.Seq = r.next()
	} else {
		e.Seq = len(r.all) + 1
	}
	r.held += int64(len(e.RequestBody) + len(e.ResponseBody))
	x := r.redact.Exchange(e)
	if r.sink == nil {
		e.ID = x.computeID() // the id a verifier recomputes from the written, redacted line
	} else {
		var n int
		e.ID, n = x.sinkLine(r.sink, &r.err)
		r.lens = append(r.lens, n)
	}
	r.all = append(r.all, e)
}

// All returns the exchanges in Seq order.
func (r *Recorder) All() []*Exchange {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*Exchange(nil), r.all...)
}

// Len is the number of exchanges recorded.
func (r *Recorder) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.all)
}

// WriteJSONL writes one JCS-canonical JSON object per line, in Seq order.
func (r *Recorder) WriteJSONL(w io.Writer) error {
	x := r.Redactor()
	var line []byte // reused: a Writer does not keep what it is given
	for _, e := range r.All() {
		line = append(x.Exchange(e).appendCanonical(line[:0]), '\n')
		if _, err := w.Write(line); err != nil {
			return err
		}
	}
	return nil
}
