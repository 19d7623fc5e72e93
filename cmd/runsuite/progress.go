package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/catalog"
)

// progress shows a run's progress on stderr: on a terminal one self-rewriting line per document (rows done /
// rows selected, and the current spec), elsewhere one plain line per document when it ends.
type progress struct {
	mu      sync.Mutex
	w       io.Writer
	tty     bool
	total   map[string]int             // document → selected witnessable rows
	done    map[string]map[string]bool // document → rows of finished specs
	doc     string
	started time.Time
}

// newProgress is the progress display of a run of docs (all when empty) restricted to rows (all when empty).
func newProgress(w io.Writer, docs, rows []string) *progress {
	p := &progress{w: w, tty: isTerminal(w), total: map[string]int{}, done: map[string]map[string]bool{}}
	for _, r := range catalog.MustLoad().Rows {
		if r.Witnessable() && (len(docs) == 0 || slices.Contains(docs, r.Document)) && (len(rows) == 0 || slices.Contains(rows, r.ID)) {
			p.total[r.Document]++
		}
	}
	return p
}

func (p *progress) event(e harness.SpecEvent) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e.Document != p.doc {
		p.endDocument()
		p.doc, p.started = e.Document, time.Now()
		if p.done[e.Document] == nil { // a document's specs may come in more than one stretch
			p.done[e.Document] = map[string]bool{}
		}
	}
	if e.Done {
		for _, r := range e.Rows {
			p.done[e.Document][r] = true
		}
	}
	if p.tty {
		line := fmt.Sprintf("%-17s %3d/%d rows  %s", p.doc, len(p.done[p.doc]), p.total[p.doc], e.Spec)
		if r := []rune(line); len(r) > 110 {
			line = string(r[:109]) + "…"
		}
		fmt.Fprintf(p.w, "\r\033[K%s", line)
	}
}

// endDocument closes the current document's line (the caller holds mu).
func (p *progress) endDocument() {
	if p.doc == "" {
		return
	}
	line := fmt.Sprintf("%-17s %3d/%d rows  %s", p.doc, len(p.done[p.doc]), p.total[p.doc], time.Since(p.started).Round(time.Millisecond))
	if p.tty {
		fmt.Fprintf(p.w, "\r\033[K%s\n", line)
	} else {
		fmt.Fprintf(p.w, "runsuite: %s\n", line)
	}
	p.doc = ""
}

// finish closes the last document's line.
func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.endDocument()
}

// isTerminal reports whether w is a character device other than a dumb terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("TERM") == "dumb" {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0 && !strings.EqualFold(os.Getenv("CI"), "true")
}
