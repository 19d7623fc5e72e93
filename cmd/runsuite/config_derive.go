package main

import (
	"context"
	"fmt"
	"io"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/suites/schemaiface"
)

// deriveSchemaInterface fills the schema-interface section with what the run itself would derive by probing the
// agent with the section's principals (schemaiface.DeriveSection: the same code), so the file says it and config
// check predicts the run exactly. Each derived member is reported on w.
// It returns what this agent's rows need beyond the document's static table (config check predicts those too).
func deriveSchemaInterface(ctx context.Context, p *probe, cfg target.Config, sec map[string]any, w io.Writer) []harness.Need {
	notes, needs := schemaiface.DeriveSection(ctx, p.client, p.cards["schema-interface"], cfg, sec)
	for _, n := range notes {
		fmt.Fprintf(w, "runsuite config: schema-interface: %s\n", n)
	}
	return needs
}
