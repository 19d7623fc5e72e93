package catalog

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/gowebpki/jcs"
)

// Documents in catalog order, with their row prefixes and spec file names.
var Documents = []Document{
	{ID: "interview", Prefix: "IV", File: "a2a-interview-v1.txt", URI: "https://agentsow.com/extensions/a2a-interview/v1", Title: "Agent SoW: A2A Interview Extension 0.1.1-draft"},
	{ID: "on-request", Prefix: "OR", File: "on-request-v1.txt", URI: "https://agent-capability.org/ext/on-request/v1", Title: "On Request: an A2A extension, 0.1 draft"},
	{ID: "schema-interface", Prefix: "SI", File: "schema-interface-v1.txt", URI: "https://agentic-network-management.github.io/agent-schema-interfaces/extensions/schema-interface/v1", Title: "Schema Interfaces for Network Management Agent Skills, interface version 1.0"},
	{ID: "terms", Prefix: "TE", File: "a2a-terms-v1.txt", URI: "https://agentsow.com/extensions/a2a-terms/v1", Title: "Agent SoW: A2A Terms Extension 0.1.0-draft"},
	{ID: "agent-cards", Prefix: "AC", File: "openwop-rfc-0202-agent-cards.txt", URI: "a2a.agentCards", Title: "OpenWOP RFC 0202: per-agent A2A Agent Cards"},
}

// Document is one of the five certified documents.
type Document struct {
	ID, Prefix, File, URI, Title string
}

// DocumentByID returns the document with id.
func DocumentByID(id string) (Document, bool) {
	for _, d := range Documents {
		if d.ID == id {
			return d, true
		}
	}
	return Document{}, false
}

// Witness classes.
const (
	WitnessWire            = "wire"
	WitnessStatic          = "static"
	WitnessReferenceClient = "reference-client"
	WitnessGated           = "gated"
	WitnessUnwitnessable   = "unwitnessable"
)

// Row is one requirement.
type Row struct {
	ID       string   `json:"id"`
	Document string   `json:"document"`
	Section  string   `json:"section"`
	Level    string   `json:"level"`
	Subject  string   `json:"subject"`
	Source   string   `json:"source"`
	Clause   string   `json:"clause"`
	Witness  string   `json:"witness"`
	Why      string   `json:"why"`
	Aliases  []string `json:"aliases"`
}

// SelfCheck reports whether the row is about the harness itself rather than the target: a row witnessed by the
// harness's own reference client (its verifier, consumer, renderer) against fixtures. Its verdict is a self-check
// and never counts for or against the target.
func (r Row) SelfCheck() bool { return r.Witness == WitnessReferenceClient }

// Advisory reports whether the row is a recommendation (SHOULD, SHOULD NOT, RECOMMENDED, NOT RECOMMENDED): it is
// graded like any other row, but a finding on it does not fail the run unless the run is strict. Not following a
// recommendation is a latitude for the requirement rows, so no requirement row may depend on an advisory one.
func (r Row) Advisory() bool { return AdvisoryLevel(r.Level) }

// AdvisoryLevel reports whether level is a recommendation level.
func AdvisoryLevel(level string) bool {
	switch level {
	case "SHOULD", "SHOULD NOT", "RECOMMENDED", "NOT RECOMMENDED":
		return true
	}
	return false
}

// Witnessable reports whether a test (and so a sabotage toggle) must exist for the row.
func (r Row) Witnessable() bool { return r.Witness != WitnessUnwitnessable }

// Excluded is a sentence that holds a keyword but is not an obligation of its document (e.g. BCP 14 boilerplate).
type Excluded struct {
	Text string `json:"text"`
	Why  string `json:"why"`
}

// File is the embedded data of one document.
type File struct {
	Document string `json:"document"`
	// TextSHA256 is the digest of the document text the rows quote ("sha256:" + hex over the file's bytes), so a
	// bundle names the exact text it was graded against even where the text itself is not shipped.
	TextSHA256 string     `json:"textSha256,omitempty"`
	Rows       []Row      `json:"rows"`
	Excluded   []Excluded `json:"excluded"`
}

// Catalog is the loaded, checked set of rows.
type Catalog struct {
	Rows  []Row
	Files []File
	byID  map[string]*Row

	digestOnce sync.Once
	digest     string
}

// Digest is "sha256:" + hex of JCS over the row array: a bundle names the catalog it was graded against. Computed
// on first use: a process that writes no bundle (a part of a split run, most commands) never pays for it.
func (c *Catalog) Digest() string {
	c.digestOnce.Do(func() {
		raw, err := json.Marshal(c.Rows)
		if err == nil {
			raw, err = jcs.Transform(raw)
		}
		if err != nil { // rows decoded from JSON encode again; a digest no bundle can match says so if not
			c.digest = "unavailable: " + err.Error()
			return
		}
		sum := sha256.Sum256(raw)
		c.digest = "sha256:" + hex.EncodeToString(sum[:])
	})
	return c.digest
}

//go:embed data/*.json
var dataFS embed.FS

var (
	loadOnce sync.Once
	loaded   *Catalog
	loadErr  error
)

// Load returns the embedded catalog; it fails if any integrity check fails.
func Load() (*Catalog, error) {
	loadOnce.Do(func() { loaded, loadErr = loadFS(dataFS) })
	return loaded, loadErr
}

// MustLoad is Load for callers that cannot proceed without a catalog (tests, suites at tree construction).
func MustLoad() *Catalog {
	c, err := Load()
	if err != nil {
		panic("catalog: " + err.Error())
	}
	return c
}

func loadFS(fsys fs.FS) (*Catalog, error) {
	var files []File
	for _, d := range Documents {
		b, err := fs.ReadFile(fsys, "data/"+d.ID+".json")
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue // a document whose rows are not written yet
			}
			return nil, err
		}
		var f File
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&f); err != nil {
			return nil, fmt.Errorf("data/%s.json: %w", d.ID, err)
		}
		files = append(files, f)
	}
	return New(files)
}

// New builds a catalog from files and runs the integrity checks.
func New(files []File) (*Catalog, error) {
	c := &Catalog{Files: files, byID: map[string]*Row{}}
	for _, f := range files {
		c.Rows = append(c.Rows, f.Rows...)
	}
	if errs := Check(c.Rows); len(errs) > 0 {
		msgs := make([]string, len(errs))
		for i, e := range errs {
			msgs[i] = e.Error()
		}
		return nil, fmt.Errorf("catalog integrity: %s", strings.Join(msgs, "; "))
	}
	for i := range c.Rows {
		c.byID[c.Rows[i].ID] = &c.Rows[i]
	}
	return c, nil
}

var (
	idPattern = regexp.MustCompile(`^[A-Za-z0-9.-]+$`)
	levels    = map[string]bool{"MUST": true, "MUST NOT": true, "REQUIRED": true, "SHALL": true, "SHALL NOT": true,
		"SHOULD": true, "SHOULD NOT": true, "RECOMMENDED": true, "NOT RECOMMENDED": true}
	subjects  = map[string]bool{"agent": true, "client": true, "consumer": true, "publisher": true, "surface": true, "deployment": true}
	witnesses = map[string]bool{WitnessWire: true, WitnessStatic: true, WitnessReferenceClient: true, WitnessGated: true, WitnessUnwitnessable: true}
)

// Check returns every integrity violation of rows: ids unique and label-safe with their document's prefix, known
// level/subject/witness, a why where witness is gated or unwitnessable, source and clause present, aliases unique.
func Check(rows []Row) []error {
	var errs []error
	ids := map[string]bool{}
	aliasOwner := map[string]string{}
	for _, r := range rows {
		bad := func(format string, a ...any) {
			errs = append(errs, fmt.Errorf("row %q: %s", r.ID, fmt.Sprintf(format, a...)))
		}
		if !idPattern.MatchString(r.ID) {
			bad("id is not label-safe ([A-Za-z0-9.-] only)")
		}
		if ids[r.ID] {
			bad("duplicate id")
		}
		ids[r.ID] = true
		d, ok := DocumentByID(r.Document)
		if !ok {
			bad("unknown document %q", r.Document)
		} else if !strings.HasPrefix(r.ID, d.Prefix+"-") {
			bad("id does not start with %s-", d.Prefix)
		}
		if !levels[r.Level] {
			bad("unknown level %q", r.Level)
		}
		if !subjects[r.Subject] {
			bad("unknown subject %q", r.Subject)
		}
		if !witnesses[r.Witness] {
			bad("unknown witness %q", r.Witness)
		}
		if (r.Witness == WitnessGated || r.Witness == WitnessUnwitnessable) && strings.TrimSpace(r.Why) == "" {
			bad("witness %s needs a why", r.Witness)
		}
		if strings.TrimSpace(r.Source) == "" || strings.TrimSpace(r.Clause) == "" {
			bad("source and clause are required")
		}
		if strings.TrimSpace(r.Section) == "" {
			bad("section is required")
		}
		seen := map[string]bool{}
		for _, a := range r.Aliases {
			if seen[a] {
				bad("alias %q repeated", a)
			}
			seen[a] = true
			aliasOwner[a] = r.ID
		}
	}
	// Aliases may span rows (a ledger id covering several rows) but must never equal a row id.
	for a := range aliasOwner {
		if ids[a] {
			errs = append(errs, fmt.Errorf("alias %q collides with a row id", a))
		}
	}
	return errs
}

// Row returns the row with id.
func (c *Catalog) Row(id string) (Row, bool) {
	r, ok := c.byID[id]
	if !ok {
		return Row{}, false
	}
	return *r, true
}

// Filter returns the rows for which keep is true, in catalog order.
func (c *Catalog) Filter(keep func(Row) bool) []Row {
	var out []Row
	for _, r := range c.Rows {
		if keep(r) {
			out = append(out, r)
		}
	}
	return out
}

// ByDocument returns the rows of one document.
func (c *Catalog) ByDocument(doc string) []Row {
	return c.Filter(func(r Row) bool { return r.Document == doc })
}

// ByWitness returns the rows of one witness class.
func (c *Catalog) ByWitness(w string) []Row {
	return c.Filter(func(r Row) bool { return r.Witness == w })
}

// BySubject returns the rows binding one subject.
func (c *Catalog) BySubject(s string) []Row {
	return c.Filter(func(r Row) bool { return r.Subject == s })
}

// ByAlias returns the rows carrying alias (an OpenWOP ledger id).
func (c *Catalog) ByAlias(a string) []Row {
	return c.Filter(func(r Row) bool {
		for _, x := range r.Aliases {
			if x == a {
				return true
			}
		}
		return false
	})
}

// IDs returns sorted row ids.
func IDs(rows []Row) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.ID
	}
	sort.Strings(out)
	return out
}
