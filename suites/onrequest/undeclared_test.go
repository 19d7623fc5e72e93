package onrequest_test

import (
	"testing"

	"github.com/extconf/extconf/harness/harnesstest"
	termsmock "github.com/extconf/extconf/mockagents/terms"
	"github.com/extconf/extconf/suites/onrequest"
)

// The terms reference agent never claims on-request: its on-request agent rows are inapplicable, never blocked.
func TestUndeclaringAgentIsInapplicableNotBlocked(t *testing.T) {
	harnesstest.Undeclared(t, termsmock.Start, "terms", "on-request", onrequest.Suite())
}
