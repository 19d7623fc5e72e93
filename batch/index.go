package batch

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"sync"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/evidence"
)

// BundleFile is the bundle's name in its directory (as `runsuite run --out DIR` writes it).
const BundleFile = "bundle.json"

// IndexVersion is the version of index.json's shape.
const IndexVersion = 1

// Index is a registry view of many bundles: one entry per bundle directory, sorted by name. It holds nothing
// but what the bundles and their verification say (no time, no host), so the same bundles give the same index.
type Index struct {
	IndexVersion int `json:"indexVersion"`
	// PinnedKey is the thumbprint of the key every signature was checked with (--key), if one was pinned.
	PinnedKey string         `json:"pinnedKey,omitempty"`
	Exit      int            `json:"exit"`     // the worst entry's exit status (Worst)
	Statuses  map[string]int `json:"statuses"` // entries per status
	Entries   []Entry        `json:"entries"`
}

// Entry is one agent's bundle as the index reads it.
type Entry struct {
	Name   string `json:"name"`   // the bundle directory's name
	Bundle string `json:"bundle"` // NAME/bundle.json, relative to the index
	Log    string `json:"log,omitempty"`
	// Status is the bundle's status when it verifies, else StatusUnverified or StatusMissing; Exit is what it
	// stands for (ExitOf; a missing or unverified bundle is a harness defect, 3).
	Status       string   `json:"status"`
	StatedStatus string   `json:"statedStatus,omitempty"` // what an unverified bundle claims
	Exit         int      `json:"exit"`
	Headline     string   `json:"headline"`
	Verified     bool     `json:"verified"`
	Problems     []string `json:"problems,omitempty"` // the first verification problems
	BundleSHA256 string   `json:"bundleSha256,omitempty"`
	// TranscriptSHA256 and WitnessSHA256 are the bundle's, checked by verification.
	TranscriptSHA256 string                    `json:"transcriptSha256,omitempty"`
	WitnessSHA256    string                    `json:"witnessSha256,omitempty"`
	Target           *EntryTarget              `json:"target,omitempty"`
	Runner           *harness.Runner           `json:"runner,omitempty"`
	Kind             string                    `json:"kind,omitempty"` // claim | evidence
	Harness          *evidence.Harness         `json:"harness,omitempty"`
	Totals           map[string]int            `json:"totals,omitempty"`          // requirement rows about the target
	Documents        map[string]map[string]int `json:"documents,omitempty"`       // the same, per document
	DocumentsGraded  []string                  `json:"documentsGraded,omitempty"` // a row executed (passed or failed)
	AdvisoryFindings int                       `json:"advisoryFindings,omitempty"`
	SelfCheck        string                    `json:"selfCheck,omitempty"`
	Started          string                    `json:"started,omitempty"`
	Finished         string                    `json:"finished,omitempty"`
}

// EntryTarget is what the bundle says was tested.
type EntryTarget struct {
	Kind     string   `json:"kind"`
	Card     string   `json:"card,omitempty"` // the first card's URL (cards sorted by role)
	Cards    int      `json:"cards"`
	Provider string   `json:"provider,omitempty"`
	ImageID  string   `json:"imageId,omitempty"`
	Sabotage []string `json:"sabotage,omitempty"`
}

// MaxBundleBytes bounds the bundle.json an index verifies (the transcript beside it is streamed). A run's
// bundle is about 0.3 MiB for all five documents.
const MaxBundleBytes = 64 << 20

// maxProblems is how many verification problems an entry quotes (the verifier names them all).
const maxProblems = 5

// BuildIndex reads every immediate subdirectory of dir as one bundle directory and verifies its bundle with o
// (o.Key pins the signer). A subdirectory without a bundle is an entry with status missing. Bundles are
// verified by up to workers at once (0: the number of CPUs).
func BuildIndex(dir string, o evidence.VerifyOptions, workers int) (*Index, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, de := range des {
		if de.IsDir() && nameRE.MatchString(de.Name()) {
			names = append(names, de.Name())
		}
	}
	sort.Strings(names)
	idx := &Index{IndexVersion: IndexVersion, Statuses: map[string]int{}, Entries: make([]Entry, len(names))}
	if o.Key != nil {
		tp, err := evidence.Thumbprint(o.Key)
		if err != nil {
			return nil, fmt.Errorf("key: %w", err)
		}
		idx.PinnedKey = tp
	}
	if workers < 1 {
		workers = runtime.NumCPU()
	}
	sem := make(chan struct{}, workers)
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			idx.Entries[i] = entryOf(dir, name, o)
		}()
	}
	wg.Wait()
	for i, e := range idx.Entries {
		idx.Statuses[e.Status]++
		if i == 0 {
			idx.Exit = e.Exit
		}
		idx.Exit = Worst(idx.Exit, e.Exit)
	}
	return idx, nil
}

func entryOf(dir, name string, o evidence.VerifyOptions) Entry {
	e := Entry{Name: name, Bundle: name + "/" + BundleFile, Status: StatusMissing, Exit: ExitDefect}
	if _, err := os.Stat(filepath.Join(dir, name, LogFile)); err == nil {
		e.Log = name + "/" + LogFile
	}
	path := filepath.Join(dir, name, BundleFile)
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		// A link or a device (a link to /dev/zero would never end hashing) is not a bundle.
		e.Status, e.Headline = StatusUnverified, "UNVERIFIED: "+name+"/"+BundleFile+" is not a regular file"
		return e
	}
	sum, err := fileSHA256(path)
	if err != nil {
		e.Headline = "MISSING: no readable " + BundleFile + " in " + name + "/"
		if e.Log != "" {
			e.Headline += " (see " + e.Log + ")"
		}
		return e
	}
	e.BundleSHA256 = sum
	if fi, err := os.Lstat(path); err == nil && fi.Size() > MaxBundleBytes {
		// The verifier reads a bundle whole: a bundle from elsewhere could be any size.
		e.Status, e.Headline = StatusUnverified, fmt.Sprintf("UNVERIFIED: %s is %d bytes, over the %d an index reads", BundleFile, fi.Size(), int64(MaxBundleBytes))
		return e
	}
	rep, err := evidence.VerifyBundle(path, o)
	if err != nil {
		e.Status, e.Headline = StatusUnverified, "UNVERIFIED: "+err.Error()
		return e
	}
	e.Verified = rep.OK()
	if p := rep.Problems(); len(p) > 0 {
		e.Problems = p[:min(len(p), maxProblems)]
	}
	b := rep.Bundle
	if b == nil {
		e.Status, e.Headline = StatusUnverified, "UNVERIFIED: not an extconf bundle"
		return e
	}
	e.Headline = evidence.Headline(b, rep)
	if e.Verified {
		e.Status, e.Exit = b.Status, ExitOf(b)
	} else {
		e.Status, e.StatedStatus = StatusUnverified, b.Status
	}
	e.TranscriptSHA256, e.WitnessSHA256 = b.Transcript.SHA256, b.WitnessSHA256
	e.Kind, e.Runner, e.Harness = b.Kind, &b.Runner, &b.Harness
	e.Totals, e.SelfCheck, e.AdvisoryFindings = b.Totals, b.SelfCheck.Status, b.Advisory.Count
	e.Started, e.Finished = b.Started, b.Finished
	t := &EntryTarget{Kind: b.Target.Kind, Cards: len(b.Target.Cards), ImageID: b.Target.ImageID, Sabotage: b.Target.Sabotage}
	cards := slices.Clone(b.Target.Cards)
	sort.Slice(cards, func(i, j int) bool { return cards[i].Role < cards[j].Role })
	if len(cards) > 0 {
		t.Card, t.Provider = cards[0].URL, cards[0].Provider
	}
	e.Target = t
	e.Documents = map[string]map[string]int{}
	graded := map[string]bool{}
	for _, r := range harness.RequiredRows(b.Rows) {
		if e.Documents[r.Document] == nil {
			e.Documents[r.Document] = map[string]int{}
		}
		e.Documents[r.Document][r.Verdict]++
		if executed(r) {
			graded[r.Document] = true
		}
	}
	for _, r := range harness.AdvisoryRows(b.Rows) {
		if executed(r) {
			graded[r.Document] = true
		}
	}
	for d := range graded {
		e.DocumentsGraded = append(e.DocumentsGraded, d)
	}
	sort.Strings(e.DocumentsGraded)
	return e
}

// executed: the row's assertions ran on the target (a blocked row says the document could not be graded).
func executed(r harness.RowVerdict) bool {
	return r.Verdict == harness.ExecutedPass || r.Verdict == harness.ExecutedFail
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}
