package terms_test

import (
	"testing"

	"github.com/extconf/extconf/harness/harnesstest"
	ormock "github.com/extconf/extconf/mockagents/onrequest"
	"github.com/extconf/extconf/suites/terms"
)

// The on-request chapel never claims terms: its terms agent rows are inapplicable, never blocked.
func TestUndeclaringAgentIsInapplicableNotBlocked(t *testing.T) {
	harnesstest.Undeclared(t, ormock.Start, "on-request", "terms", terms.Suite())
}
