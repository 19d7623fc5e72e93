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
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/go-jose/go-jose/v4"
	"github.com/gowebpki/jcs"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/catalog"
)

// VerifyOptions shape an offline verification.
type VerifyOptions struct {
	// Key pins the signer: the signature must verify with this public key. Nil: the key embedded in the bundle
	// (which proves integrity, not who signed).
	Key *jose.JSONWebKey
	// KnownToggle reports whether a sabotage toggle id exists in this harness (sabotage.Known): the
	// falsifiability table's toggles are checked against it. The engine takes it as a function because it does
	// not import the registry. Nil: toggle ids are not checked, and a note says so.
	KnownToggle func(id string) bool
	// KnownLatitude does the same for the latitudes section (sabotage.KnownLatitude). Nil: not checked, noted.
	KnownLatitude func(id string) bool
	// TrustWritten: the transcript is one this process just wrote (the self-check after a run), so its lines are
	// canonical: each is checked by hashing it with its id blanked, not by decoding, re-encoding and canonicalising
	// it. An edited line still fails (its id no longer matches); a non-canonical one would be reported as edited,
	// which is why third-party verification never sets it.
	TrustWritten bool
}

// Check is one named verification step: it holds when it has no problems. Notes say what was checked.
type Check struct {
	Name     string
	Problems []string
	Notes    []string
}

// OK reports whether the check holds.
func (c Check) OK() bool { return len(c.Problems) == 0 }

// Report is the outcome of verifying a bundle.
type Report struct {
	Path      string
	Bundle    *Bundle
	Checks    []Check
	Signature SignatureCheck
}

// OK reports whether every check holds: the only condition for `runsuite verify` to exit 0.
func (r *Report) OK() bool {
	for _, c := range r.Checks {
		if !c.OK() {
			return false
		}
	}
	return true
}

// Problems lists every problem as "check: problem".
func (r *Report) Problems() []string {
	var out []string
	for _, c := range r.Checks {
		for _, p := range c.Problems {
			out = append(out, c.Name+": "+p)
		}
	}
	return out
}

// Verify checks a bundle offline against its embedded key and returns every problem found.
func Verify(path string) ([]string, error) {
	r, err := VerifyBundle(path, VerifyOptions{})
	if err != nil {
		return nil, err
	}
	return r.Problems(), nil
}

// VerifyBundle checks a bundle offline: schema; signature (against o.Key, else the embedded key); every
// transcript line against its exchange id and the transcript against its digest; the witness digest; the
// target cards against the exchanges that fetched them; totals, assertion count and status against the rows;
// the catalog digest against this harness's catalog; that every catalog row of the covered documents is present;
// that the falsifiability table names toggles and rows that exist; and that the bundle's kind matches its tier
// and signature. Each problem names what does not hold.
func VerifyBundle(path string, o VerifyOptions) (*Report, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	cat, err := catalog.Load()
	if err != nil {
		return nil, err
	}
	rep := &Report{Path: path}
	check := func(name string) *Check {
		rep.Checks = append(rep.Checks, Check{Name: name})
		return &rep.Checks[len(rep.Checks)-1]
	}
	// A bundle with members this harness does not know still gets every check it can (the schema check names
	// the unknown member); only a file that is not a bundle at all stops here.
	b := &Bundle{}
	if err := json.Unmarshal(raw, b); err != nil {
		c := check("bundle")
		c.Problems = append(c.Problems, fmt.Sprintf("%s is not an extconf bundle: %v", path, err))
		if err := Validate(raw); err != nil {
			c.Problems = append(c.Problems, "schema: "+oneLine(err.Error()))
		}
		return rep, nil
	}
	rep.Bundle = b

	// The transcript (most of the work: every line hashed) is checked while the checks that need only the bundle
	// run; its check keeps its place in the report.
	tc := Check{Name: "transcript"}
	var transcriptSHA string
	var exchanges map[string]exchangeLine
	transcriptDone := make(chan struct{})
	go func() {
		defer close(transcriptDone)
		transcriptSHA, exchanges = checkTranscript(&tc, path, b, o.TrustWritten)
	}()
	// The witness digest over the transcript digest the bundle states, recomputed below if the file's differs.
	claimedWitness, claimedErr := WitnessDigest(b.Rows, b.Transcript.SHA256)

	c := check("schema")
	if err := Validate(raw); err != nil {
		c.Problems = append(c.Problems, fmt.Sprintf("does not validate against evidence/bundle.schema.json: %v", oneLine(err.Error())))
	} else {
		c.Notes = append(c.Notes, "valid against evidence/bundle.schema.json")
	}

	c = check("signature")
	rep.Signature = CheckSignature(raw, b.Signature, o.Key)
	c.Problems = append(c.Problems, rep.Signature.Problems...)
	switch {
	case !rep.Signature.Signed:
		c.Notes = append(c.Notes, "unsigned: the bundle is a claim whoever ran it")
		if o.Key != nil {
			c.Problems = append(c.Problems, "unsigned, but --key asks for a signature by "+mustThumb(o.Key))
		}
	case rep.Signature.Valid:
		note := fmt.Sprintf("valid %s signature by key %s, checked with the %s key", rep.Signature.Alg, rep.Signature.Thumbprint, rep.Signature.KeySource)
		if rep.Signature.KeySource == "embedded" {
			note += " (integrity only: pass --key to check who signed)"
		}
		c.Notes = append(c.Notes, note)
		if rep.Signature.TestKey != "" {
			c.Notes = append(c.Notes, "signed with the TEST-ONLY key "+rep.Signature.TestKey+", whose private half is public: the signature proves integrity, not who ran the harness")
		}
	}

	<-transcriptDone
	rep.Checks = append(rep.Checks, tc)

	c = check("witness")
	if transcriptSHA != "" {
		w, err := claimedWitness, claimedErr
		if transcriptSHA != b.Transcript.SHA256 {
			w, err = WitnessDigest(b.Rows, transcriptSHA)
		}
		switch {
		case err != nil:
			c.Problems = append(c.Problems, err.Error())
		case w != b.WitnessSHA256:
			why := "a row or the transcript was changed after the run"
			if transcriptSHA == b.Transcript.SHA256 {
				why = "the transcript is intact, so a row (verdict, detail, assertions or exchanges) was changed after the run"
			}
			c.Problems = append(c.Problems, fmt.Sprintf("witnessSha256: recomputed %s over the rows and transcript, the bundle says %s: %s", w, b.WitnessSHA256, why))
		default:
			c.Notes = append(c.Notes, "witnessSha256 matches the rows and the transcript")
		}
	}

	checkCitations(check("exchanges"), b, exchanges)
	checkTotals(check("totals"), b)
	sameCatalog := checkCatalog(check("catalog"), b, cat)
	checkRows(check("rows"), b, cat, sameCatalog)
	if b.Target.Kind == TargetKindClient || b.Target.Client != nil {
		checkClient(check("client"), b, cat, sameCatalog)
	}
	checkFalsifiability(check("falsifiability"), b, cat, sameCatalog, o)
	checkStanding(check("standing"), b, rep.Signature)
	return rep, nil
}

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
		c.Problems = append(c.Problems, fmt.Sprintf("transcript.file %q must be a bare file name beside the bundle", file))
		return "", nil
	}
	f, err := os.Open(filepath.Join(filepath.Dir(path), file))
	if err != nil {
		c.Problems = append(c.Problems, fmt.Sprintf("cannot read %s: %v", file, err))
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
				c.Problems = append(c.Problems, p.problem)
			} else {
				if want := n - len(batch) + i + 1; p.ex.seq != want {
					c.Problems = append(c.Problems, fmt.Sprintf("%s line %d carries seq %d (lines were removed, added or reordered)", file, want, p.ex.seq))
				}
				exchanges[p.ex.id] = p.ex
			}
		}
		batch, held = batch[:0], 0
	}
	for {
		line, err := readLine(r, maxTranscriptLine)
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
			c.Problems = append(c.Problems, fmt.Sprintf("reading %s: %v", file, err))
			break
		}
	}
	flush()
	digest := "sha256:" + hex.EncodeToString(h.Sum(nil))
	if digest != b.Transcript.SHA256 {
		c.Problems = append(c.Problems, fmt.Sprintf("%s digests to %s, the bundle says %s (the transcript was edited)", file, digest, b.Transcript.SHA256))
	}
	if n != b.Transcript.Exchanges {
		c.Problems = append(c.Problems, fmt.Sprintf("%s has %d exchanges, the bundle says %d", file, n, b.Transcript.Exchanges))
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

func checkCitations(c *Check, b *Bundle, exchanges map[string]exchangeLine) {
	if exchanges == nil {
		c.Problems = append(c.Problems, "not checked: the transcript could not be read")
		return
	}
	cited := 0
	for _, r := range b.Rows {
		for _, id := range r.Exchanges {
			cited++
			if _, ok := exchanges[id]; !ok {
				c.Problems = append(c.Problems, fmt.Sprintf("row %s cites exchange %s, which is not in the transcript", r.ID, id))
			}
		}
	}
	for _, card := range b.Target.Cards {
		if card.Exchange == "" {
			c.Problems = append(c.Problems, fmt.Sprintf("target card %q (%s) names no exchange, so its digest cannot be checked", card.Role, card.URL))
			continue
		}
		ex, ok := exchanges[card.Exchange]
		if !ok {
			c.Problems = append(c.Problems, fmt.Sprintf("target card %q was fetched by exchange %s, which is not in the transcript", card.Role, card.Exchange))
			continue
		}
		if got := ex.bodySHA; got != card.SHA256 {
			c.Problems = append(c.Problems, fmt.Sprintf("target card %q digest: the bundle says %s but the card fetched by ex#%d (%s) digests to %s (the target card digest was changed)", card.Role, card.SHA256, ex.seq, ex.url, got))
		}
		if ex.url != card.URL {
			c.Problems = append(c.Problems, fmt.Sprintf("target card %q: the bundle says %s but ex#%d fetched %s", card.Role, card.URL, ex.seq, ex.url))
		}
	}
	if c.OK() {
		c.Notes = append(c.Notes, fmt.Sprintf("%d row citations and %d card digests match the transcript", cited, len(b.Target.Cards)))
	}
}

func checkTotals(c *Check, b *Bundle) {
	compare := func(what string, got map[string]int, rows []harness.RowVerdict) {
		totals := harness.Totals(rows)
		keys := make([]string, 0, len(totals)+len(got))
		for v := range totals {
			keys = append(keys, v)
		}
		for v := range got {
			if _, ok := totals[v]; !ok {
				keys = append(keys, v)
			}
		}
		sort.Strings(keys)
		for _, v := range keys {
			if got[v] != totals[v] {
				c.Problems = append(c.Problems, fmt.Sprintf("%s%s is %d in the bundle but %d rows carry it", what, v, got[v], totals[v]))
			}
		}
	}
	compare("", b.Totals, harness.RequiredRows(b.Rows))
	compare("advisory.totals.", b.Advisory.Totals, harness.AdvisoryRows(b.Rows))
	if want := AdvisoryOf(b.Rows); b.Advisory.Count != want.Count || len(b.Advisory.Findings) != want.Count {
		c.Problems = append(c.Problems, fmt.Sprintf("advisory.count is %d with %d findings but %d advisory rows did not pass", b.Advisory.Count, len(b.Advisory.Findings), want.Count))
	} else {
		for i, f := range want.Findings {
			if g := b.Advisory.Findings[i]; g.ID != f.ID || g.Verdict != f.Verdict || g.Document != f.Document {
				c.Problems = append(c.Problems, fmt.Sprintf("advisory.findings[%d] is %s %s but the rows make it %s %s", i, g.ID, g.Verdict, f.ID, f.Verdict))
			}
		}
	}
	compare("selfCheck.totals.", b.SelfCheck.Totals, harness.SelfCheckRows(b.Rows))
	sum := 0
	for _, r := range b.Rows {
		sum += r.Assertions
	}
	if sum != b.AssertionCount {
		c.Problems = append(c.Problems, fmt.Sprintf("assertionCount is %d but the rows' assertions add up to %d", b.AssertionCount, sum))
	}
	if want, _ := harness.StatusOf(b.Rows, b.Selection.Strict); b.Status != want {
		c.Problems = append(c.Problems, fmt.Sprintf("status is %q but the rows about the target make it %q (strict %v)", b.Status, want, b.Selection.Strict))
	}
	if want := harness.SelfCheckStatus(b.Rows); b.SelfCheck.Status != want {
		c.Problems = append(c.Problems, fmt.Sprintf("selfCheck.status is %q but the self-check rows make it %q", b.SelfCheck.Status, want))
	}
	if c.OK() {
		note := fmt.Sprintf("totals, assertionCount (%d) and status (%s) agree with the rows about the target; advisory findings %d (strict %v); self-check %s", sum, b.Status, b.Advisory.Count, b.Selection.Strict, b.SelfCheck.Status)
		if b.StatusReason != "" {
			note += "; " + b.StatusReason
		}
		c.Notes = append(c.Notes, note)
	}
}

func checkCatalog(c *Check, b *Bundle, cat *catalog.Catalog) bool {
	if b.Catalog.Digest != cat.Digest() {
		c.Problems = append(c.Problems, fmt.Sprintf("different catalog version: the bundle was graded against catalog %s (%d rows); this harness carries %s (%d rows), so its rows cannot be checked against this catalog",
			b.Catalog.Digest, b.Catalog.Rows, cat.Digest(), len(cat.Rows)))
		return false
	}
	for _, d := range b.Documents {
		for _, f := range cat.Files {
			if f.Document == d.ID && f.TextSHA256 != "" && d.TextSHA256 != f.TextSHA256 {
				got := d.TextSHA256
				if got == "" {
					got = "none"
				}
				c.Problems = append(c.Problems, fmt.Sprintf("document %s: the bundle names text digest %s, this catalog quotes the text with digest %s (different document text)", d.ID, got, f.TextSHA256))
			}
		}
	}
	if c.OK() {
		c.Notes = append(c.Notes, "catalog "+cat.Digest()+" is this harness's")
	}
	return true
}

func checkRows(c *Check, b *Bundle, cat *catalog.Catalog, sameCatalog bool) {
	seen := map[string]bool{}
	for _, r := range b.Rows {
		if seen[r.ID] {
			c.Problems = append(c.Problems, fmt.Sprintf("row %s appears twice", r.ID))
		}
		seen[r.ID] = true
	}
	if !sameCatalog {
		if len(b.Rows) != b.Catalog.Rows {
			c.Problems = append(c.Problems, fmt.Sprintf("the bundle holds %d rows but names a catalog of %d rows", len(b.Rows), b.Catalog.Rows))
		} else {
			c.Notes = append(c.Notes, fmt.Sprintf("%d rows, as many as the bundle's own catalog has; not checked row by row (different catalog version)", len(b.Rows)))
		}
		return
	}
	covered := map[string]bool{}
	for _, d := range b.Selection.Documents {
		covered[d] = true
	}
	for _, card := range b.Target.Cards {
		for _, uri := range card.DeclaredExtensions {
			for _, d := range catalog.Documents {
				if d.URI == uri {
					covered[d.ID] = true
				}
			}
		}
	}
	for _, r := range b.Rows {
		row, ok := cat.Row(r.ID)
		switch {
		case !ok:
			c.Problems = append(c.Problems, fmt.Sprintf("row %s is not in the catalog", r.ID))
		case row.Document != r.Document:
			c.Problems = append(c.Problems, fmt.Sprintf("row %s says document %s, the catalog says %s", r.ID, r.Document, row.Document))
		case b.Target.Kind == TargetKindClient && r.SelfCheck:
			// a client certification: the reference-client rows are about the client under test
			c.Problems = append(c.Problems, fmt.Sprintf("row %s says selfCheck true in a client certification, where every row is about the client under test", r.ID))
		case b.Target.Kind != TargetKindClient && row.SelfCheck() != r.SelfCheck:
			c.Problems = append(c.Problems, fmt.Sprintf("row %s says selfCheck %v, the catalog says %v (witness %s)", r.ID, r.SelfCheck, row.SelfCheck(), row.Witness))
		case (row.Advisory() && !row.SelfCheck()) != r.Advisory:
			c.Problems = append(c.Problems, fmt.Sprintf("row %s says advisory %v, the catalog gives it level %s", r.ID, r.Advisory, row.Level))
		}
	}
	missing := 0
	for _, r := range cat.Rows {
		if !seen[r.ID] {
			missing++
			if covered[r.Document] {
				c.Problems = append(c.Problems, fmt.Sprintf("row %s (%s, a document the run covers) is missing from the bundle", r.ID, r.Document))
			} else {
				c.Problems = append(c.Problems, fmt.Sprintf("row %s (%s) is missing from the bundle", r.ID, r.Document))
			}
		}
	}
	if c.OK() {
		docs := make([]string, 0, len(covered))
		for d := range covered {
			docs = append(docs, d)
		}
		sort.Strings(docs)
		c.Notes = append(c.Notes, fmt.Sprintf("all %d catalog rows present (covered documents: %s)", len(cat.Rows), strings.Join(docs, ", ")))
	}
}

func checkFalsifiability(c *Check, b *Bundle, cat *catalog.Catalog, sameCatalog bool, o VerifyOptions) {
	f := b.Falsifiability
	if f == nil {
		c.Notes = append(c.Notes, "no falsifiability table in this bundle (run with --falsify)")
		return
	}
	if o.KnownToggle == nil {
		c.Notes = append(c.Notes, "toggle ids not checked against a sabotage registry")
	}
	killedBy := map[string]map[string]bool{} // toggle → rows it killed, per the toggle table
	for _, t := range f.Toggles {
		if o.KnownToggle != nil && !o.KnownToggle(t.ID) {
			c.Problems = append(c.Problems, fmt.Sprintf("toggle %q does not exist in this harness", t.ID))
		}
		killedBy[t.ID] = map[string]bool{}
		for _, id := range t.Killed {
			killedBy[t.ID][id] = true
		}
	}
	rows := make([]string, 0, len(f.Rows))
	for id := range f.Rows {
		rows = append(rows, id)
	}
	sort.Strings(rows)
	for _, id := range rows {
		if sameCatalog {
			if _, ok := cat.Row(id); !ok {
				c.Problems = append(c.Problems, fmt.Sprintf("row %q is not in the catalog", id))
			}
		}
		for _, t := range f.Rows[id] {
			if _, ok := killedBy[t]; !ok {
				c.Problems = append(c.Problems, fmt.Sprintf("row %s is said to be killed by %q, which is not in the toggle table", id, t))
			} else if !killedBy[t][id] {
				c.Problems = append(c.Problems, fmt.Sprintf("row %s is said to be killed by %q, whose table entry does not list it as killed", id, t))
			}
		}
	}
	var unproven []string
	for _, r := range b.Rows {
		if r.Verdict == harness.ExecutedPass && len(f.Rows[r.ID]) == 0 {
			unproven = append(unproven, r.ID)
		}
	}
	checkLatitudes(c, f, cat, sameCatalog, o)
	checkDerived(c, f.Derived, o)
	if c.OK() {
		c.Notes = append(c.Notes, fmt.Sprintf("%d toggles, all registered; %d rows killed", len(f.Toggles), len(rows)))
		if len(f.Latitudes) > 0 {
			sv, n := f.LatitudesSurvived()
			c.Notes = append(c.Notes, fmt.Sprintf("latitudes survived %d/%d", sv, n))
		}
	}
	if len(unproven) > 0 {
		c.Notes = append(c.Notes, fmt.Sprintf("%d passing rows have no toggle that killed them (their tests are not proven able to fail): %s", len(unproven), clipList(unproven, 12)))
	}
}

func checkStanding(c *Check, b *Bundle, sig SignatureCheck) {
	if b.Kind == "evidence" {
		if !sig.Signed {
			c.Problems = append(c.Problems, "kind is evidence but the bundle is unsigned")
		} else if !sig.Valid {
			c.Problems = append(c.Problems, "kind is evidence but the signature does not hold")
		}
		if b.Runner.Tier != "third-party" {
			c.Problems = append(c.Problems, fmt.Sprintf("kind is evidence but the tier is %q: a self-run is a claim", b.Runner.Tier))
		}
	}
	if b.Runner.Tier == "third-party" {
		if strings.TrimSpace(b.Runner.Name) == "" {
			c.Problems = append(c.Problems, "tier is third-party but no runner is named")
		}
		if card, ok := ProviderRunner(b.Runner.Name, b.Target.Cards); ok {
			c.Problems = append(c.Problems, fmt.Sprintf("tier is third-party but the runner %q is the provider organization of the %q card: a self-run", b.Runner.Name, card.Role))
		}
		if !sig.Signed {
			c.Problems = append(c.Problems, "tier is third-party but the bundle is unsigned: a third-party result must be signed")
		}
	}
	if c.OK() {
		c.Notes = append(c.Notes, fmt.Sprintf("kind %s, tier %s, runner %q", b.Kind, b.Runner.Tier, b.Runner.Name))
	}
}

func mustThumb(k *jose.JSONWebKey) string {
	tp, err := Thumbprint(k)
	if err != nil {
		return "(unreadable key)"
	}
	return tp
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func clipList(ids []string, n int) string {
	if len(ids) <= n {
		return strings.Join(ids, ", ")
	}
	return fmt.Sprintf("%s, … (%d more)", strings.Join(ids[:n], ", "), len(ids)-n)
}

// checkLatitudes checks the latitudes section: ids registered, documents in the catalog, no latitude listed twice,
// and "survived" consistent with what the entry says failed (a latitude that failed rows, or whose run could not be
// made, did not survive). A latitude that did not survive is reported as a note: the table records it honestly.
func checkLatitudes(c *Check, f *Falsifiability, cat *catalog.Catalog, sameCatalog bool, o VerifyOptions) {
	if len(f.Latitudes) == 0 {
		return
	}
	if o.KnownLatitude == nil {
		c.Notes = append(c.Notes, "latitude ids not checked against a registry")
	}
	seen := map[string]bool{}
	for _, l := range f.Latitudes {
		if seen[l.ID] {
			c.Problems = append(c.Problems, fmt.Sprintf("latitude %q is listed twice", l.ID))
		}
		seen[l.ID] = true
		if o.KnownLatitude != nil && !o.KnownLatitude(l.ID) {
			c.Problems = append(c.Problems, fmt.Sprintf("latitude %q does not exist in this harness", l.ID))
		}
		if strings.TrimSpace(l.Permits) == "" {
			c.Problems = append(c.Problems, fmt.Sprintf("latitude %q quotes nothing that permits it", l.ID))
		}
		for _, d := range l.Documents {
			if _, ok := catalog.DocumentByID(d); !ok {
				c.Problems = append(c.Problems, fmt.Sprintf("latitude %q: unknown document %q", l.ID, d))
			}
		}
		if want := len(l.Failed) == 0 && l.Error == ""; l.Survived != want {
			c.Problems = append(c.Problems, fmt.Sprintf("latitude %q says survived=%t but lists %d failed rows (error %q)", l.ID, l.Survived, len(l.Failed), l.Error))
		}
		for _, fr := range l.Failed {
			if sameCatalog {
				if r, ok := cat.Row(fr.Row); !ok {
					c.Problems = append(c.Problems, fmt.Sprintf("latitude %q: failed row %q is not in the catalog", l.ID, fr.Row))
				} else if !slices.Contains(l.Documents, r.Document) {
					c.Problems = append(c.Problems, fmt.Sprintf("latitude %q: failed row %s belongs to %s, which it did not run", l.ID, fr.Row, r.Document))
				}
			}
		}
		if !l.Survived {
			c.Notes = append(c.Notes, fmt.Sprintf("latitude %s did not survive (%d rows failed)", l.ID, len(l.Failed)))
		}
	}
}

// checkClient checks a client certification: the client is named, only reference-client rows carry a verdict
// other than skipped, and scopeStatus agrees with the scope rows' verdicts.
func checkClient(c *Check, b *Bundle, cat *catalog.Catalog, sameCatalog bool) {
	cl := b.Target.Client
	if b.Target.Kind != TargetKindClient || cl == nil {
		c.Problems = append(c.Problems, "target.client is set exactly when target.kind is client")
		return
	}
	verdict := map[string]string{}
	for _, r := range b.Rows {
		verdict[r.ID] = r.Verdict
		if row, ok := cat.Row(r.ID); ok && sameCatalog && !row.SelfCheck() && r.Verdict != harness.Skipped {
			c.Problems = append(c.Problems, fmt.Sprintf("row %s is not a client row (witness %s) but reads %s in a client certification", r.ID, row.Witness, r.Verdict))
		}
	}
	want := "passed"
	if len(cl.ScopeRows) == 0 {
		want = "nothing-graded"
	}
	for _, id := range cl.ScopeRows {
		v, ok := verdict[id]
		if !ok {
			c.Problems = append(c.Problems, fmt.Sprintf("scope row %s is not among the rows", id))
		}
		if v != harness.ExecutedPass {
			want = "failed"
		}
	}
	if cl.ScopeStatus != want {
		c.Problems = append(c.Problems, fmt.Sprintf("target.client.scopeStatus is %q but the scope rows make it %q", cl.ScopeStatus, want))
	}
	if c.OK() {
		c.Notes = append(c.Notes, fmt.Sprintf("client %q (%s %s): %d scenarios, %d scope rows, scope %s", cl.Command, cl.Name, cl.Version, len(cl.Scenarios), len(cl.ScopeRows), cl.ScopeStatus))
	}
}
