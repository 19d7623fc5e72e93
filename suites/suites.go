// Package suites lists the Ginkgo suites, one package per document. Each registers itself from a file here named
// after its document, so suites land one by one without touching each other.
package suites

import (
	"sort"

	"github.com/extconf/extconf/harness"
)

var all = map[string]harness.Suite{}

func register(s harness.Suite) { all[s.Document] = s }

// All returns every suite, in document order.
func All() []harness.Suite {
	out := make([]harness.Suite, 0, len(all))
	for _, s := range all {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Document < out[j].Document })
	return out
}
