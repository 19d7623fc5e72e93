package harness

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/strictjson"
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
	// Input returns a pointer to a fresh zero value of the document's section of the target configuration
	// (documents.<id>), or nil when the document takes none. The engine decodes the section into it strictly
	// (PrepareConfig); specs read the result with Env.Input.
	Input() any
}

// Applier is implemented by a document's input type that also feeds the pre-#22 members its suite still reads
// (requests keys, pseudo-roles, prefixed principals): Apply writes the section into cfg, resolving named
// credentials, so a typed section and a legacy file drive the suite the same way.
type Applier interface {
	Apply(cfg *target.Config) error
}

// Need is one row of a document's static input table: the rows that block unless Member (a JSON path inside
// documents.<id>, or a common member such as "$.credentials") is given.
type Need struct {
	Member string   // e.g. "profile.multiOperation", or "principals.B"
	What   string   // what to give
	Rows   []string // catalog row ids it unblocks
	// Always marks an input every target has (valid arguments for a skill): it cannot be declared absent, since
	// the rows it unblocks apply whatever the operator says.
	Always bool
	// Empty marks a member whose empty value is a statement ("actingFor": {} is the harness default,
	// "operatorPhones": [] is none): written empty, it counts as given.
	Empty bool
	// Derived marks a member the run derives by probing when the operator leaves it out: the static prediction
	// skips it (the document's SectionDeriver reports it among the target's needs when probing cannot derive it),
	// and it may still be declared absent.
	Derived bool
	// Given, when set, decides whether the member is given from the whole prepared configuration (a member that
	// lives on a named credential, such as the workspace identifier of principal A's credential), instead of the
	// section's path.
	Given func(cfg target.Config) bool
}

// Needer is implemented by documents that publish which of their rows need which input member (runsuite config
// check reports from it).
type Needer interface {
	Needs() []Need
}

// SectionDeriver is implemented by documents whose run derives members of their section by probing the target
// (runsuite config init writes what it derives into the file; config check derives before predicting, so both say
// what the run will find). It fills sec (the decoded documents.<id> section), never overwriting a member sec gives
// or declares absent, and returns one note per derived member and what this target's rows need beyond the
// document's static Needs table.
type SectionDeriver interface {
	DeriveSection(ctx context.Context, cl *a2a.Client, cardURL string, card *a2a.AgentCard, cfg target.Config, sec map[string]any) (notes []string, needs []Need)
}

// ExampleRequests fills sec["requests"], unless given, with each skill's examples: how a run asks for a skill when
// the operator gives no text (the documents whose suites send ordinary requests derive it so).
func ExampleRequests(card *a2a.AgentCard, sec map[string]any) []string {
	if _, given := sec["requests"]; given || card == nil {
		return nil
	}
	reqs := map[string][]string{}
	for _, sk := range card.Skills {
		if len(sk.Examples) > 0 {
			reqs[sk.ID] = sk.Examples
		}
	}
	if len(reqs) == 0 {
		return nil
	}
	sec["requests"] = reqs
	return []string{fmt.Sprintf("requests derived: the examples of %d skills of the card", len(reqs))}
}

// PrepareConfig decodes each documents.<id> section of cfg into its document's Input type — strictly: an unknown
// or case-variant member anywhere, a duplicate or a wrong type is an error naming its JSON path — stores the
// results in cfg.Inputs and lets each Applier write its section into the members its suite reads. A section for
// no registered document is an error. Run it before CheckConfig; errors are configuration errors (exit 2).
func PrepareConfig(cfg *target.Config, docs ...Document) error {
	byID := map[string]Document{}
	ids := make([]string, 0, len(docs))
	for _, d := range docs {
		byID[d.ID()] = d
		ids = append(ids, d.ID())
	}
	sort.Strings(ids)
	var errs []error
	secIDs := make([]string, 0, len(cfg.Documents))
	for id := range cfg.Documents {
		secIDs = append(secIDs, id)
	}
	sort.Strings(secIDs)
	for _, id := range secIDs {
		d, ok := byID[id]
		if !ok {
			errs = append(errs, fmt.Errorf("unknown member %q at $.documents (documents: %s)", id, strings.Join(ids, ", ")))
			continue
		}
		in := d.Input()
		if in == nil {
			errs = append(errs, fmt.Errorf("$.documents.%s: the document takes no operator input", id))
			continue
		}
		if err := strictjson.DecodeAt(cfg.Documents[id], in, "$.documents."+id); err != nil {
			errs = append(errs, err)
			continue
		}
		if err := checkAbsences(id, in, d); err != nil {
			errs = append(errs, err)
			continue
		}
		if cfg.Inputs == nil {
			cfg.Inputs = map[string]any{}
		}
		cfg.Inputs[id] = in
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	for _, id := range secIDs {
		if a, ok := cfg.Inputs[id].(Applier); ok {
			if err := a.Apply(cfg); err != nil {
				if !strings.HasPrefix(err.Error(), "$") {
					err = fmt.Errorf("$.documents.%s: %w", id, err)
				}
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// Input is the decoded documents.<id> section of the run's configuration, or nil when the operator gave none.
func (e *Env) Input(id string) any { return e.Target.Config.Inputs[id] }

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

// Input takes none.
func (NoOperatorInput) Input() any { return nil }
