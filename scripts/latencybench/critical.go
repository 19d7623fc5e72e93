package main

import (
	"bufio"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/suites"
)

// criticalPath is the longest chain of target exchanges the split run cannot shorten, read from a one-process run
// (its bundle directory and Ginkgo's JSON report): each spec's chain (its target exchanges that do not overlap
// in time: one issued after the previous answered), and each document's ordered rows' chains summed plus its
// longest other spec (the ordered rows run one after another, alone on the document's agents: nothing else of the
// document runs beside them). The longest of these, in exchanges, and the longest spec's. Setup a spec shares with
// others (a card fetched once per process) counts once, in the first spec that made it: a lower bound, which
// makes the goal harder, never easier.
func criticalPath(out, report string, origins map[string]bool) (path, spec int, err error) {
	type ex struct {
		start, end time.Time
	}
	var exs []ex
	f, err := os.Open(filepath.Join(out, "transcript.jsonl"))
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var e struct {
			URL        string    `json:"url"`
			Started    time.Time `json:"started"`
			DurationMs float64   `json:"durationMs"`
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return 0, 0, err
		}
		u, err := url.Parse(e.URL)
		if err != nil || !origins[u.Scheme+"://"+u.Host] {
			continue
		}
		exs = append(exs, ex{e.Started, e.Started.Add(time.Duration(e.DurationMs * float64(time.Millisecond)))})
	}
	if err := sc.Err(); err != nil {
		return 0, 0, err
	}
	raw, err := os.ReadFile(report)
	if err != nil {
		return 0, 0, err
	}
	var reps []struct {
		SpecReports []struct {
			LeafNodeType            string
			State                   string
			ContainerHierarchyTexts []string
			LeafNodeLabels          []string
			StartTime, EndTime      time.Time
		}
	}
	if err := json.Unmarshal(raw, &reps); err != nil {
		return 0, 0, err
	}
	ordered := map[string]map[string]string{}
	all := map[string]bool{}
	for _, d := range suites.Documents() {
		ordered[d.ID()], all[d.ID()] = harness.OrderedRows(d)
	}
	longest := 0
	orderedSum, longestFree := map[string]int{}, map[string]int{}
	for _, r := range reps {
		for _, s := range r.SpecReports {
			if s.LeafNodeType != "It" || s.State == "skipped" || len(s.ContainerHierarchyTexts) == 0 {
				continue
			}
			// The spec's exchanges, then the longest run of them each starting after the previous ended.
			var in []ex
			for _, e := range exs {
				if !e.start.Before(s.StartTime) && !e.start.After(s.EndTime) {
					in = append(in, e)
				}
			}
			slices.SortFunc(in, func(a, b ex) int { return a.end.Compare(b.end) })
			chain, last := 0, time.Time{}
			for _, e := range in {
				if !e.start.Before(last) {
					chain++
					last = e.end
				}
			}
			longest = max(longest, chain)
			doc := s.ContainerHierarchyTexts[0]
			if all[doc] || slices.ContainsFunc(s.LeafNodeLabels, func(l string) bool { return ordered[doc][l] != "" }) {
				orderedSum[doc] += chain
			} else {
				longestFree[doc] = max(longestFree[doc], chain)
			}
		}
	}
	path = longest
	for doc, n := range orderedSum {
		path = max(path, n+longestFree[doc])
	}
	return path, longest, nil
}
