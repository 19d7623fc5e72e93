package falsify

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/evidence"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/sabotage"
	"github.com/extconf/extconf/suites"
)

// The modes of a falsification: each is a way users run the harness, and a toggle proven only in one says nothing
// of the others.
const (
	// ModeFull runs the reference agents in process with everything they announce (the default).
	ModeFull = "full"
	// ModeDerived serves the reference agents as URL targets and gives the run only what an operator cannot leave to
	// probing: the credentials, the common members and each section's operator facts (suites.OperatorCut); the run
	// derives the rest, as a credentials-only user's run does.
	ModeDerived = "derived"
)

// derivedTarget is tgt (the reference agents just started) as an operator holding only their operator facts runs
// it: a URL target for the first document's card, the other roles from the announcement's agents.
func derivedTarget(tgt *target.Target, docs []string) (*target.Target, error) {
	if tgt.Announce == nil {
		return nil, errors.New("derived mode: the reference agents announce nothing")
	}
	an, err := tgt.Announce()
	if err != nil {
		return nil, fmt.Errorf("derived mode: %w", err)
	}
	cfg, err := suites.OperatorCut(*an)
	if err != nil {
		return nil, fmt.Errorf("derived mode: %w", err)
	}
	if err := harness.PrepareConfig(&cfg, suites.Documents()...); err != nil {
		return nil, fmt.Errorf("derived mode: the cut announcement: %w", err)
	}
	card := ""
	for _, d := range docs {
		if u, ok := an.Agents[d]; ok {
			card = u
			break
		}
	}
	if card == "" {
		return nil, fmt.Errorf("derived mode: no card announced for %v", docs)
	}
	out := &target.Target{Kind: target.KindURL, Agents: map[string]string{"": card}, RootCAs: tgt.RootCAs, Config: cfg, Close: tgt.Close}
	for role, u := range cfg.Agents {
		out.Agents[role] = u
	}
	return out, nil
}

// DerivedToggles are the toggles a derived falsification runs by default: the agent side (the client side runs
// through the client contract) of every document given.
func DerivedToggles(docs []string) []sabotage.Toggle {
	var out []sabotage.Toggle
	for _, t := range sabotage.All() {
		if t.Side == sabotage.SideAgent && (len(docs) == 0 || slices.Contains(docs, t.Document)) {
			out = append(out, t)
		}
	}
	return out
}

// judgeDerived reads a toggle's derived-mode outcome: a target row is killed when it failed here and did not fail
// in the derived reference run; it abstains honestly when blocked, inapplicable or skipped naming why; anything
// else, above all an executed-pass, is a survivor: the planted defect went unnoticed in the way users run.
func judgeDerived(t sabotage.Toggle, oc Outcome, refFail map[string]bool) evidence.DerivedToggleResult {
	tr := evidence.DerivedToggleResult{ID: string(t.ID), Document: t.Document, Targets: t.Targets,
		Killed: []string{}, Survived: []string{}}
	if oc.Error != "" {
		tr.Error = oc.Error
		tr.Survived = append(tr.Survived, t.Targets...)
		return tr
	}
	for _, id := range t.Targets {
		v, ok := oc.Targets[id]
		switch {
		case !ok:
			tr.Survived = append(tr.Survived, id)
			tr.Abstained = append(tr.Abstained, evidence.RowOutcome{Row: id, Verdict: harness.NotTested, Detail: "the run graded no such row"})
		case v.Verdict == harness.ExecutedFail && !refFail[id]:
			tr.Killed = append(tr.Killed, id)
		case v.Verdict == harness.ExecutedPass:
			tr.Survived = append(tr.Survived, id)
			tr.Passed = append(tr.Passed, id)
		case v.Verdict != harness.ExecutedFail && v.Verdict != harness.NotTested && strings.TrimSpace(v.Detail) != "":
			tr.Abstained = append(tr.Abstained, v) // blocked, inapplicable or skipped, naming why
		default:
			tr.Survived = append(tr.Survived, id)
			tr.Abstained = append(tr.Abstained, v)
		}
	}
	return tr
}
