package main

import (
	"context"
	"fmt"
	"io"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/suites"
)

// deriveSections fills each section of a document that derives by probing (harness.SectionDeriver) with what its
// run would derive, probing the agent with the section's principals (the same code), so the file says it and
// config check predicts the run exactly. Each derived member is reported on w. It returns, per document, what this
// agent's rows need beyond the document's static table (config check predicts those too).
func deriveSections(ctx context.Context, p *probe, cfg target.Config, secs map[string]map[string]any, w io.Writer) map[string][]harness.Need {
	out := map[string][]harness.Need{}
	for _, d := range suites.Documents() {
		dv, ok := d.(harness.SectionDeriver)
		sec, given := secs[d.ID()]
		if !ok || !given || p.cards[d.ID()] == nil {
			continue // a card that could not be read: probeTarget's note says why
		}
		notes, needs := dv.DeriveSection(ctx, p.client, p.urls[d.ID()], p.cards[d.ID()], cfg, sec)
		for _, n := range notes {
			fmt.Fprintf(w, "runsuite config: %s: %s\n", d.ID(), n)
		}
		out[d.ID()] = needs
	}
	return out
}
