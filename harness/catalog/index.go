package catalog

//go:generate go run ../../cmd/rowindex

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"
)

// RegenerateCommand rewrites the row index and every README section generated from it. The drift test
// (cmd/rowindex) prints it when the committed files differ from what it would write now.
const RegenerateCommand = "go generate ./harness/catalog"

// Index is the generated row index (index.json beside this file): for every catalog row, where it is witnessed
// (its spec declarations), which sabotage toggles must kill it and where each is consulted, and which latitude
// variants must not fail it. It is written by cmd/rowindex from the source tree and the sabotage
// registry and embedded here, so a runsuite binary prints it without the source (`runsuite catalog --format index`).
type Index struct {
	// Catalog is the digest of the catalog the index was generated from (Catalog.Digest).
	Catalog string     `json:"catalog"`
	Rows    []IndexRow `json:"rows"`
}

// IndexRow is one catalog row, in catalog order. Every list is present (possibly empty), sorted, and every path
// is relative to the module root with forward slashes, so the file is byte-stable across runs and machines.
type IndexRow struct {
	ID       string    `json:"id"`
	Document string    `json:"document"`
	Witness  string    `json:"witness"`
	Specs    []SpecRef `json:"specs"`
	// Toggles are the sabotage toggles whose Targets name the row: each must make it executed-fail.
	Toggles []Variant `json:"toggles"`
	// Latitudes are the variants of a reference agent that stay inside what the document allows: none may make
	// the row fail. A witnessable row lists every latitude whose documents include its document (or are "all").
	Latitudes []Variant `json:"latitudes"`
}

// SpecRef is one spec declaration witnessing the row.
type SpecRef struct {
	Text     string `json:"text"`     // the spec text after the row id
	Location string `json:"location"` // file:line of the declaring call
}

// Variant is a toggle or a latitude and the places a mock or the reference client consults it.
type Variant struct {
	ID        string   `json:"id"`
	Side      string   `json:"side"`      // agent | client
	Consulted []string `json:"consulted"` // file:line of each expression whose constant value is the id
}

//go:embed index.json
var indexJSON []byte

var (
	indexOnce sync.Once
	index     *Index
	indexErr  error
)

// IndexJSON returns the committed index file, byte for byte.
func IndexJSON() []byte { return indexJSON }

// LoadIndex decodes the committed index.
func LoadIndex() (*Index, error) {
	indexOnce.Do(func() {
		var ix Index
		if err := json.Unmarshal(indexJSON, &ix); err != nil {
			indexErr = fmt.Errorf("index.json: %w (regenerate: %s)", err, RegenerateCommand)
			return
		}
		index = &ix
	})
	return index, indexErr
}
