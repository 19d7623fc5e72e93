// Package suites lists the Ginkgo suites, one package per document. Each registers itself from a file here named
// after its document, so suites land one by one without touching each other.
package suites

import (
	"sort"

	"github.com/extconf/extconf/harness"
)

// A document may have several suites (e.g. agent-side and reference-client specs); they run as one.
var all []harness.Suite

func register(s harness.Suite) { all = append(all, s) }

// All returns every suite, in document order.
func All() []harness.Suite {
	out := append([]harness.Suite(nil), all...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Document < out[j].Document })
	return out
}
