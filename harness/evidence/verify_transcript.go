package evidence

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/gowebpki/jcs"
)

// exchangeLine is what verification reads of one transcript line.
type exchangeLine struct {
	line    int
	seq     int
	id      string
	method  string
	url     string
	status  int
	bodySHA string // the digest of the decoded response body (a card's, checked against target.cards)
}

func checkTranscript(c *Check, path string, b *Bundle, trustWritten bool) (string, map[string]exchangeLine) {
	file := b.Transcript.File
	if file == "" || filepath.Base(file) != file {
		c.add(fmt.Sprintf("transcript.file %q must be a bare file name beside the bundle", file))
		return "", nil
	}
	f, err := os.Open(filepath.Join(filepath.Dir(path), file))
	if err != nil {
		c.add(fmt.Sprintf("cannot read %s: %v", file, err))
		return "", nil
	}
	defer f.Close()
	// Streamed: one line is held at a time and the file is hashed as it is read, so verifying a transcript of
	// any size takes memory bounded by its longest line.
	h := sha256.New()
	r := bufio.NewReaderSize(io.TeeReader(f, h), 1<<20)
	exchanges := map[string]exchangeLine{}
	parse := parseExchangeLine
	if trustWritten {
		parse = parseWrittenLine // lines this process just wrote are canonical: no re-encoding
	}
	// Lines are checked in batches, each batch's lines in parallel (every line's digest is its own), then taken
	// in order: the batch bounds what is held to about batchBytes plus one line.
	type parsed struct {
		ex      exchangeLine
		problem string
	}
	var batch [][]byte
	var out []parsed
	held, n := 0, 0
	flush := func() {
		out = slices.Grow(out[:0], len(batch))[:len(batch)]
		workers := min(runtime.GOMAXPROCS(0), len(batch))
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := w; i < len(batch); i += workers {
					ex, problem := parse(n-len(batch)+i+1, batch[i])
					out[i] = parsed{ex, problem}
				}
			}()
		}
		wg.Wait()
		for i, p := range out {
			if p.problem != "" {
				c.add(p.problem)
			} else {
				if want := n - len(batch) + i + 1; p.ex.seq != want {
					c.add(fmt.Sprintf("%s line %d carries seq %d (lines were removed, added or reordered)", file, want, p.ex.seq))
				}
				exchanges[p.ex.id] = p.ex
			}
		}
		batch, held = batch[:0], 0
	}
	for {
		line, err := readLine(r, maxTranscriptLine)
		if len(line) > 0 && n >= maxTranscriptExchanges {
			c.add(fmt.Sprintf("%s has more than %d lines, more than verify reads: the rest is not checked", file, maxTranscriptExchanges))
			break
		}
		if len(line) > 0 {
			n++
			batch = append(batch, line)
			if held += len(line); held >= batchBytes || len(batch) >= batchLines {
				flush()
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			c.add(fmt.Sprintf("reading %s: %v", file, err))
			break
		}
	}
	flush()
	digest := "sha256:" + hex.EncodeToString(h.Sum(nil))
	if digest != b.Transcript.SHA256 {
		c.add(fmt.Sprintf("%s digests to %s, the bundle says %s (the transcript was edited)", file, digest, b.Transcript.SHA256))
	}
	if n != b.Transcript.Exchanges {
		c.add(fmt.Sprintf("%s has %d exchanges, the bundle says %d", file, n, b.Transcript.Exchanges))
	}
	if c.OK() {
		c.Notes = append(c.Notes, fmt.Sprintf("%d exchanges; every line digests to its exchange id; the file digests to transcript.sha256", n))
	}
	return digest, exchanges
}

// A batch of transcript lines checked in parallel: at most batchLines lines, or batchBytes once reached.
const (
	batchLines = 256
	batchBytes = 8 << 20
)

// maxTranscriptLine bounds one transcript line (an exchange with bodies up to the largest body cap, base64-encoded).
const maxTranscriptLine = 256 << 20

// readLine reads one '\n'-terminated line (without it), refusing one longer than max.
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > max {
			return nil, fmt.Errorf("a line longer than %d bytes", max)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if n := len(line); n > 0 && line[n-1] == '\n' {
			line = line[:n-1]
		}
		return line, err
	}
}

// parseWrittenLine reads a line this process wrote: already canonical, so its content digest is the SHA-256 of
// the line with its id value blanked (the top-level "id" member; `"id":"` cannot occur unescaped inside a string).
func parseWrittenLine(n int, line []byte) (exchangeLine, string) {
	ex, idAt, idEnd, ok := scanWritten(n, line)
	if !ok {
		return parseExchangeLine(n, line)
	}
	// The digest of the line with the id value blanked, hashed in place (no copy of a line that may be megabytes).
	h := sha256.New()
	h.Write(line[:idAt])
	h.Write([]byte(`""`))
	h.Write(line[idEnd:])
	if got := "sha256:" + hex.EncodeToString(h.Sum(nil)); got != ex.id {
		return ex, fmt.Sprintf("%s line %d (ex#%d %s %s) was edited: its content digests to %s but it carries id %s", TranscriptFile, n, ex.seq, ex.method, ex.url, got, ex.id)
	}
	return ex, ""
}

// scanWritten reads the members verification needs from a line this process wrote, walking only the top level of
// the object (a body is skipped by looking for its closing quote, not decoded as JSON): the fields, and where the
// id's string value starts and ends. Anything unexpected answers !ok, and the line gets the full check.
func scanWritten(n int, line []byte) (ex exchangeLine, idAt, idEnd int, ok bool) {
	ex.line = n
	if len(line) < 2 || line[0] != '{' || line[len(line)-1] != '}' {
		return ex, 0, 0, false
	}
	i := 1
	var body []byte
	haveID := false
	for i < len(line)-1 {
		if line[i] != '"' {
			return ex, 0, 0, false
		}
		kEnd := bytes.IndexByte(line[i+1:], '"')
		if kEnd < 0 {
			return ex, 0, 0, false
		}
		key := string(line[i+1 : i+1+kEnd])
		i += kEnd + 2
		if i >= len(line) || line[i] != ':' || strings.ContainsRune(key, '\\') {
			return ex, 0, 0, false
		}
		i++
		end, good := skipValue(line, i)
		if !good || end >= len(line) {
			return ex, 0, 0, false
		}
		v := line[i:end]
		switch key {
		case "id", "method", "url":
			var str string
			if json.Unmarshal(v, &str) != nil {
				return ex, 0, 0, false
			}
			switch key {
			case "id":
				if haveID {
					return ex, 0, 0, false
				}
				ex.id, idAt, idEnd, haveID = str, i, end, true
			case "method":
				ex.method = str
			default:
				ex.url = str
			}
		case "seq", "status":
			x, err := strconv.Atoi(string(v))
			if err != nil {
				return ex, 0, 0, false
			}
			if key == "seq" {
				ex.seq = x
			} else {
				ex.status = x
			}
		case "responseBody":
			if len(v) < 2 || v[0] != '"' {
				return ex, 0, 0, false
			}
			b, err := base64.StdEncoding.DecodeString(string(v[1 : len(v)-1]))
			if err != nil {
				return ex, 0, 0, false
			}
			body = b
		}
		i = end
		if line[i] == ',' {
			if i++; i >= len(line)-1 {
				return ex, 0, 0, false
			}
		} else if i != len(line)-1 {
			return ex, 0, 0, false
		}
	}
	ex.bodySHA = Digest(body)
	return ex, idAt, idEnd, haveID
}

// skipValue returns the end of the JSON value starting at b[i] (canonical form: no whitespace).
func skipValue(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				e, ok := skipString(b, i)
				if !ok {
					return 0, false
				}
				i = e
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, true
				}
			}
			i++
		}
		return 0, false
	default:
		for j := i; j < len(b); j++ {
			if b[j] == ',' || b[j] == '}' || b[j] == ']' {
				return j, j > i
			}
		}
		return 0, false
	}
}

// skipString returns the end of the JSON string starting at b[i] == '"'.
func skipString(b []byte, i int) (int, bool) {
	j := i + 1
	for {
		q := bytes.IndexByte(b[j:], '"')
		if q < 0 {
			return 0, false
		}
		j += q
		bs := 0
		for k := j - 1; k > i && b[k] == '\\'; k-- {
			bs++
		}
		if bs%2 == 0 {
			return j + 1, true
		}
		j++
	}
}

func parseExchangeLine(n int, line []byte) (exchangeLine, string) {
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		return exchangeLine{}, fmt.Sprintf("%s line %d is not a JSON object: %v", TranscriptFile, n, err)
	}
	ex := exchangeLine{line: n}
	ex.id, _ = m["id"].(string)
	ex.method, _ = m["method"].(string)
	ex.url, _ = m["url"].(string)
	if s, ok := m["seq"].(json.Number); ok {
		v, _ := s.Int64()
		ex.seq = int(v)
	}
	if s, ok := m["status"].(json.Number); ok {
		v, _ := s.Int64()
		ex.status = int(v)
	}
	if s, ok := m["responseBody"].(string); ok {
		body, _ := base64.StdEncoding.DecodeString(s)
		ex.bodySHA = Digest(body)
	} else {
		ex.bodySHA = Digest(nil)
	}
	m["id"] = ""
	raw, err := json.Marshal(m)
	if err == nil {
		raw, err = jcs.Transform(raw)
	}
	if err != nil {
		return ex, fmt.Sprintf("%s line %d: %v", TranscriptFile, n, err)
	}
	if got := Digest(raw); got != ex.id {
		return ex, fmt.Sprintf("%s line %d (ex#%d %s %s) was edited: its content digests to %s but it carries id %s", TranscriptFile, n, ex.seq, ex.method, ex.url, got, ex.id)
	}
	return ex, ""
}
