package harness

import (
	"errors"
	"fmt"

	"github.com/extconf/extconf/harness/target"
)

// Document is how one of the documents registers with the engine. The engine knows no document by name: it runs
// the suites a Document gives, lets its operator input widen the reach rule, and has it check its own parts of
// the target configuration. cmd wires the documents in one list (suites.All).
//
// The document's rows live in the catalog (harness/catalog/data/<id>.json); its sabotage toggles in
// sabotage/<id>.go; its reference agent in mockagents/<id>.
type Document interface {
	// ID is the catalog document id ("terms", "schema-interface", …).
	ID() string
	// Suites are its specs; a document may have several (agent-side and reference-client specs) that run as one.
	Suites() []Suite
	// Origins are the origins its operator input names (an inventory or discovery URL …): the run may reach
	// them besides the target's card URLs.
	Origins(cfg target.Config) []string
	// LimitsMember is the member of "limits" holding the document's own bounds ("" for none).
	LimitsMember() string
	// CheckConfig rejects, before any run starts, a malformed part of cfg the document owns (its limits member).
	CheckConfig(cfg target.Config) error
}

// Suites flattens documents into the suites a run executes, each carrying its document's reach.
func Suites(docs ...Document) []Suite {
	var out []Suite
	for _, d := range docs {
		for _, s := range d.Suites() {
			s.Origins = d.Origins
			out = append(out, s)
		}
	}
	return out
}

// CheckConfig validates a target configuration against the engine and the registered documents before a run:
// the engine's limits, that every document-owned limits member is claimed by a document, and each document's own
// check. A failure is a configuration error (exit 2), never a row verdict.
func CheckConfig(cfg target.Config, docs ...Document) error {
	l, err := ParseLimits(cfg.Limits)
	if err != nil {
		return err
	}
	claimed := map[string]bool{}
	for _, d := range docs {
		if m := d.LimitsMember(); m != "" {
			claimed[m] = true
		}
	}
	var errs []error
	for m := range l.Documents {
		if !claimed[m] {
			errs = append(errs, fmt.Errorf("limits: unknown member %q", m))
		}
	}
	for _, d := range docs {
		if err := d.CheckConfig(cfg); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// NoOperatorInput is embedded by documents whose operator input widens no reach and owns no limits member.
type NoOperatorInput struct{}

// Origins names none.
func (NoOperatorInput) Origins(target.Config) []string { return nil }

// LimitsMember claims none.
func (NoOperatorInput) LimitsMember() string { return "" }

// CheckConfig has nothing to check.
func (NoOperatorInput) CheckConfig(target.Config) error { return nil }
