package evidence

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/gowebpki/jcs"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/harness/strictjson"
	"github.com/extconf/extconf/harness/target"
)

// Version is the harness version written into bundles.
const Version = "0.2.0"

// TranscriptFile is the transcript's file name beside the bundle.
const TranscriptFile = "transcript.jsonl"

// Bundle is the evidence bundle (schema: evidence/bundle.schema.json).
type Bundle struct {
	BundleVersion  int                  `json:"bundleVersion"`
	Kind           string               `json:"kind"` // claim | evidence
	Harness        Harness              `json:"harness"`
	Catalog        CatalogRef           `json:"catalog"`
	Documents      []DocumentRef        `json:"documents"`
	Target         TargetRef            `json:"target"`
	Runner         harness.Runner       `json:"runner"`
	TierBasis      string               `json:"tierBasis,omitempty"` // why the run has the tier it has
	Selection      harness.Selection    `json:"selection"`
	Seed           int64                `json:"seed"`
	Started        string               `json:"started"`
	Finished       string               `json:"finished"`
	Status         string               `json:"status"`                 // the target's: harness.Status
	StatusReason   string               `json:"statusReason,omitempty"` // why, when nothing was graded or the run was interrupted
	Totals         map[string]int       `json:"totals"`                 // requirement rows about the target only
	Advisory       Advisory             `json:"advisory"`               // recommendation rows about the target
	SelfCheck      SelfCheck            `json:"selfCheck"`              // rows about the harness itself
	AssertionCount int                  `json:"assertionCount"`
	Rows           []harness.RowVerdict `json:"rows"`
	Transcript     TranscriptRef        `json:"transcript"`
	WitnessSHA256  string               `json:"witnessSha256"`
	Falsifiability *Falsifiability      `json:"falsifiability,omitempty"`
	Signature      *Signature           `json:"signature,omitempty"`
}

// SelfCheck is what the harness's own reference-client rows add up to: never part of the target's result. A
// failed self-check is a harness defect.
type SelfCheck struct {
	Status string         `json:"status"` // harness.SelfCheck*
	Totals map[string]int `json:"totals"`
}

// Advisory is what the recommendation rows (SHOULD, SHOULD NOT, RECOMMENDED) about the target add up to: graded
// like any other row, reported apart. Their findings do not fail the run unless selection.strict is set.
type Advisory struct {
	Totals   map[string]int    `json:"totals"`
	Count    int               `json:"count"`    // len(Findings)
	Findings []AdvisoryFinding `json:"findings"` // the advisory rows that did not pass
}

// AdvisoryFinding is one recommendation row the target did not (or could not be shown to) follow.
type AdvisoryFinding struct {
	ID       string `json:"id"`
	Document string `json:"document"`
	Verdict  string `json:"verdict"`
	Detail   string `json:"detail,omitempty"`
}

// AdvisoryOf builds the advisory section from a run's rows.
func AdvisoryOf(rows []harness.RowVerdict) Advisory {
	a := Advisory{Totals: harness.Totals(harness.AdvisoryRows(rows)), Findings: []AdvisoryFinding{}}
	for _, r := range harness.AdvisoryFindings(rows) {
		a.Findings = append(a.Findings, AdvisoryFinding{ID: r.ID, Document: r.Document, Verdict: r.Verdict, Detail: r.Detail})
	}
	a.Count = len(a.Findings)
	return a
}

// BundleVersion is the bundle format this harness writes and verifies (2: target and self-check rows apart).
const BundleVersion = 2

// Harness names the build that produced the bundle.
type Harness struct {
	Name      string `json:"name"`
	Version   string `json:"version"`
	GoVersion string `json:"goVersion"`
	Build     Build  `json:"build"`
}

// Build is what the binary was built from (BuildInfo): a commit, else a module version, else unknown.
type Build struct {
	Kind     string `json:"kind"` // commit | module | unknown
	ID       string `json:"id"`   // commit: the revision (a pseudo-version's 12-hex prefix at least); module: the version
	Modified bool   `json:"modified,omitempty"`
	// Module is the main module's version the toolchain recorded (`go install …@v0.2.0`, or the pseudo-version
	// `go build` derives from the checkout), and Sum its go.sum hash when the module came from a proxy.
	Module string `json:"module,omitempty"`
	Sum    string `json:"sum,omitempty"`
}

// CatalogRef names the catalog the rows were graded against.
type CatalogRef struct {
	Digest string `json:"digest"`
	Rows   int    `json:"rows"`
}

// DocumentRef names one certified document and the digest of the text the catalog quotes.
type DocumentRef struct {
	ID         string `json:"id"`
	Title      string `json:"title"`
	URI        string `json:"uri"`
	TextSHA256 string `json:"textSha256,omitempty"`
}

// TargetRef is the agent under test.
type TargetRef struct {
	Kind     string    `json:"kind"`
	Cards    []CardRef `json:"cards"`
	ImageID  string    `json:"imageId,omitempty"`
	Sabotage []string  `json:"sabotage,omitempty"`
	// Client is the client under test of a client certification (Kind "client"): its rows are the catalog's
	// reference-client rows, about that client (selfCheck false).
	Client *ClientRef `json:"client,omitempty"`
}

// TargetKindClient marks a client certification bundle (runsuite client).
const TargetKindClient = "client"

// ClientRef names the client under test and what the driver contract made of it.
type ClientRef struct {
	Command       string              `json:"command"`
	Name          string              `json:"name,omitempty"`
	Version       string              `json:"version,omitempty"`
	IdentityError string              `json:"identityError,omitempty"`
	Actions       []string            `json:"actions,omitempty"` // the contract actions it declares (none: every one)
	Scenarios     []ClientScenarioRef `json:"scenarios"`
	ScopeRows     []string            `json:"scopeRows"`
	ScopeStatus   string              `json:"scopeStatus"`
}

// ClientScenarioRef is one scenario the client was run in and how it ended.
type ClientScenarioRef struct {
	ID      string   `json:"id"`
	Action  string   `json:"action"`
	Toggles []string `json:"toggles,omitempty"`
	Outcome string   `json:"outcome"`
	Reason  string   `json:"reason,omitempty"`
	Error   string   `json:"error,omitempty"`
}

// CardRef is one card fetched during the run.
type CardRef struct {
	Role               string   `json:"role"`
	URL                string   `json:"url"`
	SHA256             string   `json:"sha256"`
	Exchange           string   `json:"exchange,omitempty"`
	DeclaredExtensions []string `json:"declaredExtensions,omitempty"`
	Provider           string   `json:"provider,omitempty"`
	Name               string   `json:"name,omitempty"` // the card's name
}

// TranscriptRef points at the JSON Lines transcript beside the bundle.
type TranscriptRef struct {
	File      string `json:"file"`
	Exchanges int    `json:"exchanges"`
	SHA256    string `json:"sha256"`
	// RedactionSalt salted the digest of "[redacted sha256:…]" markers in bundles before issue 37. Markers are now
	// keyed by a per-run key that is never written ("[redacted hmac:…]"); the member is read, never written.
	RedactionSalt string `json:"redactionSalt,omitempty"`
}

// Falsifiability is the table proving each row's test can fail.
type Falsifiability struct {
	Run     string `json:"run,omitempty"`     // which falsification this is: when, seed, build
	Seed    int64  `json:"seed,omitempty"`    // the Ginkgo seed of every run of the matrix
	Started string `json:"started,omitempty"` // when the matrix started (RFC 3339)
	Runs    int    `json:"runs,omitempty"`    // the reference run plus one run per toggle
	// ReferenceNotPassing lists rows that did not pass against the unsabotaged reference agents: their kills
	// cannot count (the positive control failed).
	ReferenceNotPassing []string            `json:"referenceNotPassing,omitempty"`
	Toggles             []ToggleResult      `json:"toggles"`
	Rows                map[string][]string `json:"rows"` // row id → toggles that killed it
	// Latitudes are the runs with one latitude on (a choice the document permits): each must survive, every row of
	// its documents executed-pass, inapplicable, blocked with a reason, unwitnessable or skipped.
	Latitudes []LatitudeResult `json:"latitudes,omitempty"`
	// Derived is the same toggles' falsification in the derived (credentials-only, URL target) mode.
	Derived *DerivedFalsifiability `json:"derived,omitempty"`
}

// LatitudeResult is one latitude run's outcome.
type LatitudeResult struct {
	ID        string   `json:"id"`
	Documents []string `json:"documents"` // the documents run (the latitude's, among those with a suite)
	Permits   string   `json:"permits"`   // the sentence or silence that permits the choice
	Survived  bool     `json:"survived"`  // no row failed (and the run itself did not)
	Rows      int      `json:"rows"`      // rows graded in the run
	// Failed are the rows that did not survive: executed-fail, not-tested, blocked without a reason, or any verdict
	// that does not read as an honest outcome.
	Failed []LatitudeFailure `json:"failed,omitempty"`
	Error  string            `json:"error,omitempty"` // the run could not be made
}

// LatitudeFailure is one row a latitude failed.
type LatitudeFailure struct {
	Row     string `json:"row"`
	Verdict string `json:"verdict"`
	Detail  string `json:"detail,omitempty"`
}

// LatitudesSurvived counts the latitudes that survived, of all run.
func (f *Falsifiability) LatitudesSurvived() (survived, total int) {
	for _, l := range f.Latitudes {
		if l.Survived {
			survived++
		}
	}
	return survived, len(f.Latitudes)
}

// ToggleResult is one sabotaged run's outcome.
type ToggleResult struct {
	ID         string   `json:"id"`
	Document   string   `json:"document,omitempty"`
	Side       string   `json:"side,omitempty"`
	Targets    []string `json:"targets"`
	Killed     []string `json:"killed"`
	Survived   []string `json:"survived"`
	Collateral []string `json:"collateral,omitempty"`
	Error      string   `json:"error,omitempty"`
}

// Signature is a JWS (compact serialization, payload attached) over the JCS form of the bundle without its
// signature member, with the signer's public key (JWK) and its RFC 7638 thumbprint, so it verifies offline.
type Signature struct {
	JWS        string          `json:"jws"`
	Thumbprint string          `json:"thumbprint,omitempty"`
	Alg        string          `json:"alg,omitempty"`
	JWK        json.RawMessage `json:"jwk,omitempty"` // the public key; never private members
}

// BuildInfo reads the harness build from the binary (see buildOf).
func BuildInfo() Harness {
	bi, _ := debug.ReadBuildInfo()
	return Harness{Name: "extconf", Version: Version, GoVersion: runtime.Version(), Build: buildOf(bi, stampCommit, stampModified)}
}

// New assembles a bundle from a run. The transcript bytes are those WriteDir will put beside it.
func New(res *harness.Result, tgt *target.Target, transcript []byte, fals *Falsifiability) (*Bundle, error) {
	return NewFromDigest(res, tgt, Digest(transcript), fals)
}

// NewFromDigest is New for a transcript already written (WriteTranscript): only its digest is needed, so a run
// never holds its whole transcript in memory.
func NewFromDigest(res *harness.Result, tgt *target.Target, transcriptSHA string, fals *Falsifiability) (*Bundle, error) {
	ref := TranscriptRef{File: TranscriptFile, Exchanges: len(res.Exchanges), SHA256: transcriptSHA}
	return NewFromTranscript(res, tgt, ref, fals)
}

// NewFromTranscript is NewFromDigest for a transcript described by ref, which need not come from res's own
// recorder: a run split across processes (runsuite run --jobs) merges its parts' transcripts into one.
func NewFromTranscript(res *harness.Result, tgt *target.Target, ref TranscriptRef, fals *Falsifiability) (*Bundle, error) {
	transcriptSHA := ref.SHA256
	cat, err := catalog.Load()
	if err != nil {
		return nil, err
	}
	b := &Bundle{BundleVersion: BundleVersion, Kind: "claim", Harness: BuildInfo(),
		Catalog: CatalogRef{Digest: cat.Digest(), Rows: len(cat.Rows)},
		Runner:  res.Env.Runner, Selection: res.Selection, Seed: res.Seed,
		Started: res.Started.UTC().Format(time.RFC3339Nano), Finished: res.Finished.UTC().Format(time.RFC3339Nano),
		Rows: res.Rows, Totals: harness.Totals(harness.RequiredRows(res.Rows)), Falsifiability: fals, Advisory: AdvisoryOf(res.Rows),
		SelfCheck: SelfCheck{Status: harness.SelfCheckStatus(res.Rows), Totals: harness.Totals(harness.SelfCheckRows(res.Rows))},
		Target:    TargetRef{Kind: tgt.Kind, ImageID: tgt.ImageID, Sabotage: tgt.Sabotage, Cards: []CardRef{}}}
	if b.Selection.Documents == nil {
		b.Selection.Documents = []string{}
	}
	for _, d := range catalog.Documents {
		ref := DocumentRef{ID: d.ID, Title: d.Title, URI: d.URI}
		for _, f := range cat.Files {
			if f.Document == d.ID {
				ref.TextSHA256 = f.TextSHA256
			}
		}
		b.Documents = append(b.Documents, ref)
	}
	roles := make([]string, 0, len(res.Cards))
	for r := range res.Cards {
		roles = append(roles, r)
	}
	sort.Strings(roles)
	for _, r := range roles {
		c := res.Cards[r]
		b.Target.Cards = append(b.Target.Cards, CardRef{Role: r, URL: c.URL, SHA256: c.SHA256, Exchange: c.Exchange,
			DeclaredExtensions: c.Extensions, Provider: c.Provider, Name: c.Name})
	}
	b.Runner, b.TierBasis = DecideTier(res.Env.Runner, b.Target.Cards)
	for _, r := range res.Rows {
		b.AssertionCount += r.Assertions
	}
	b.Status, b.StatusReason = harness.StatusOf(res.Rows, res.Selection.Strict)
	b.Transcript = ref
	b.WitnessSHA256, err = WitnessDigest(b.Rows, transcriptSHA)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// DecideTier settles a run's standing. A run is self (a claim) when the runner says so, when nothing says
// otherwise (no runner name), or when the runner is the provider organization of a card it tested: a provider's
// run of its own agent is never independent, whatever --tier said. Only a named runner that is none of the
// providers keeps third-party. The basis says which rule applied.
func DecideTier(r harness.Runner, cards []CardRef) (harness.Runner, string) {
	if r.Tier != "third-party" {
		r.Tier = "self"
		if strings.TrimSpace(r.Name) == "" {
			return r, "self: no runner named and no tier declared; nothing says the run is independent"
		}
		return r, "self: declared by the runner"
	}
	if strings.TrimSpace(r.Name) == "" {
		r.Tier = "self"
		return r, "self: third-party was asked for but no runner is named (--as), so nothing says who is independent"
	}
	var providers []string
	for _, c := range cards {
		if c.Provider == "" {
			continue
		}
		if sameOrg(c.Provider, r.Name) {
			r.Tier = "self"
			return r, fmt.Sprintf("self: the runner %q is the provider organization of the %q card (%s)", r.Name, c.Role, c.URL)
		}
		if !slices.Contains(providers, c.Provider) {
			providers = append(providers, c.Provider)
		}
	}
	if len(providers) == 0 {
		return r, fmt.Sprintf("third-party: declared by %q; no card names a provider organization", r.Name)
	}
	return r, fmt.Sprintf("third-party: declared by %q, who is none of the cards' provider organizations (%s)", r.Name, strings.Join(providers, ", "))
}

// ProviderRunner reports the card whose provider organization is the runner, if any.
func ProviderRunner(name string, cards []CardRef) (CardRef, bool) {
	for _, c := range cards {
		if c.Provider != "" && sameOrg(c.Provider, name) {
			return c, true
		}
	}
	return CardRef{}, false
}

// sameOrg reports whether two organization names name the same organization, as a person would read them: case,
// punctuation, spacing and a trailing legal form ("Inc", "LLC", "Ltd", "GmbH", …, with or without a dot) do not
// count. Erring towards "same" only ever makes a run a claim, so the folding is generous.
func sameOrg(a, b string) bool {
	fa := foldOrg(a)
	return fa != "" && fa == foldOrg(b)
}

// legalForms are the company-form suffixes foldOrg drops (compared after punctuation is removed: "L.L.C." is llc).
var legalForms = map[string]bool{
	"inc": true, "incorporated": true, "llc": true, "ltd": true, "limited": true, "gmbh": true, "corp": true,
	"corporation": true, "co": true, "company": true, "plc": true, "ag": true, "sa": true, "sas": true, "sarl": true,
	"srl": true, "spa": true, "bv": true, "nv": true, "pty": true, "pte": true, "lp": true, "llp": true, "oy": true,
	"ab": true, "kk": true, "kg": true, "ug": true, "se": true, "mbh": true, "ltda": true, "oyj": true, "asa": true,
}

// foldOrg is an organization name reduced for comparison: lower case, words of letters and digits only (other
// characters split words, except . and ' which vanish so "A.C.M.E." is acme), legal forms and a leading "the"
// dropped from the ends, the words joined without spaces.
func foldOrg(s string) string {
	var words []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			words = append(words, cur.String())
			cur.Reset()
		}
	}
	for _, r := range strings.ToLower(s) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			cur.WriteRune(r)
		case r == '.' || r == '\'' || r == '’':
		default:
			flush()
		}
	}
	flush()
	all := strings.Join(words, "")
	for len(words) > 1 && legalForms[words[len(words)-1]] {
		words = words[:len(words)-1]
	}
	if len(words) > 1 && words[0] == "the" {
		words = words[1:]
	}
	if out := strings.Join(words, ""); out != "" {
		return out
	}
	return all
}

// Digest is "sha256:" + lowercase hex of SHA-256 over b.
func Digest(b []byte) string {
	s := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(s[:])
}

// Witness digests the verdict rows together with the transcript: JCS of {rows, transcriptSha256}. Flipping a
// verdict or editing a transcript line changes it.
func Witness(rows []harness.RowVerdict, transcript []byte) (string, error) {
	return WitnessDigest(rows, Digest(transcript))
}

// WitnessDigest is Witness given the transcript's digest.
func WitnessDigest(rows []harness.RowVerdict, transcriptSHA string) (string, error) {
	raw, err := json.Marshal(map[string]any{"rows": rows, "transcriptSha256": transcriptSHA})
	if err != nil {
		return "", err
	}
	canon, err := jcs.Transform(raw)
	if err != nil {
		return "", err
	}
	return Digest(canon), nil
}

// Canonical returns the JCS form of the bundle with its signature member removed: the signing input.
func (b *Bundle) Canonical() ([]byte, error) {
	c := *b
	c.Signature = nil
	raw, err := json.Marshal(&c)
	if err != nil {
		return nil, err
	}
	return jcs.Transform(raw)
}

// Transcript renders a run's exchanges as JSON Lines.
func Transcript(res *harness.Result) ([]byte, error) {
	var buf bytes.Buffer
	if err := res.Env.Client.Recorder().WriteJSONL(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// WriteDir writes bundle.json (JCS-canonical) and the transcript into dir.
func WriteDir(dir string, b *Bundle, transcript []byte) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	raw, err := json.Marshal(b)
	if err != nil {
		return "", err
	}
	canon, err := jcs.Transform(raw)
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "bundle.json")
	if transcript != nil { // else written by WriteTranscript
		if err := writeFileAtomic(filepath.Join(dir, TranscriptFile), func(w io.Writer) error { _, err := w.Write(transcript); return err }); err != nil {
			return "", err
		}
	}
	if err := writeFileAtomic(path, func(w io.Writer) error { _, err := w.Write(append(canon, '\n')); return err }); err != nil {
		return "", err
	}
	return path, nil
}

// WriteTranscript streams the recorder's (redacted) exchanges into dir/transcript.jsonl, hashing while it writes:
// one exchange is held at a time, whatever the run recorded. It returns the file's digest.
func WriteTranscript(dir string, rec *a2a.Recorder) (string, error) {
	return WriteTranscriptFrom(dir, rec.WriteJSONL)
}

// WriteTranscriptFrom is WriteTranscript for lines that write produces (already canonical, in Seq order).
func WriteTranscriptFrom(dir string, write func(io.Writer) error) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	h := sha256.New()
	err := writeFileAtomic(filepath.Join(dir, TranscriptFile), func(f io.Writer) error {
		w := bufio.NewWriterSize(io.MultiWriter(f, h), 1<<20)
		if err := write(w); err != nil {
			return err
		}
		return w.Flush()
	})
	if err != nil {
		return "", err
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// WriteBundleFile writes bundle.json (JCS-canonical) into dir, beside a transcript WriteTranscript wrote.
func WriteBundleFile(dir string, b *Bundle) (string, error) {
	return WriteDir(dir, b, nil)
}

// Load reads a bundle written by WriteDir.
func Load(path string) (*Bundle, []byte, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	var b Bundle
	if err := strictjson.Decode(raw, &b); err != nil {
		return nil, raw, fmt.Errorf("bundle %s: %w", path, err)
	}
	return &b, raw, nil
}
