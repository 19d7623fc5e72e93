package schemaiface_test

import (
	"strings"
	"testing"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/harnesstest"
	mock "github.com/extconf/extconf/mockagents/schemaiface"
	"github.com/extconf/extconf/sabotage"
	"github.com/extconf/extconf/suites/schemaiface"
)

// Latitude si.lat.error-text-part: "the Task's final status Message MUST contain exactly one Data Part whose data
// value has this form" counts Data Parts; a human-readable Text Part beside the error Data Part failed SI-9.46a and
// SI-4.1a (issue #40).
func TestLatitudeErrorTextPart(t *testing.T) {
	latitude(t, mock.Options{ErrorTextPart: true}, "SI-9.46a", "SI-4.1a", "SI-9.46b")
}

// Latitude si.lat.no-records: records are carried "when present", and the document "does not mandate a common
// property name or reference structure": an output with an empty reference list and no record failed SI-8.15 and
// SI-9.40 (issue #40).
func TestLatitudeNoRecords(t *testing.T) {
	latitude(t, mock.Options{NoRecords: true}, "SI-8.15", "SI-9.40")
}

// Latitude si.lat.resolution-media-type: a media_type member beside the inline schema is no "external schema
// locator in place of the embedded content"; it failed SI-7.5 and SI-12.1 while SI-6.14 and SI-8.1 passed the same
// document (issue #40).
func TestLatitudeResolutionMediaType(t *testing.T) {
	latitude(t, mock.Options{ResolutionMediaType: true}, "SI-7.5", "SI-12.1", "SI-6.14", "SI-8.1")
}

// Latitude si.lat.current-named-uri: a schema_uri whose last segment is current, with an exact version, failed
// SI-11.3b; the sentence binds the version and digest the assembler selects (issue #40).
func TestLatitudeCurrentNamedURI(t *testing.T) {
	latitude(t, mock.Options{CurrentNamedURI: true}, "SI-11.3b", "SI-11.3a")
}

// SI-8.11b with only credentials: the derivation no longer assumes that an output member of a constraint's name
// reflects it (issue #40: an invented echo); the row grades the refused half and says what the honoured half needs.
func TestConstraintEchoNotDerived(t *testing.T) {
	rows, _ := run(t, sabotage.Set{}, credentialsOnly)
	r := rows["SI-8.11b"]
	if r.Verdict != harness.ExecutedPass || !strings.Contains(r.Detail, "needs constraints.reflects") {
		t.Errorf("SI-8.11b: %s (%s), want executed-pass noting the honoured half needs constraints.reflects", r.Verdict, r.Detail)
	}
}

// SI-9.11 never sends a made-up request to an execute-mode skill (issue #40: it sent {} to every advertised skill):
// with only credentials, manage_resource (execute, no arguments known) gets no invocation from the row, and the
// row says what its invocation half needs.
func TestBindingRowSendsNoMadeUpExecuteRequest(t *testing.T) {
	set := sabotage.Set{}
	rows, res := harnesstest.Run(t, mock.Start, set, credentialsOnly, "schema-interface", harness.Options{
		Suites: []harness.Suite{schemaiface.Suite()}, Sabotage: set, Seed: 1, Rows: []string{"SI-9.11"}})
	r := rows["SI-9.11"]
	if r.Verdict != harness.ExecutedPass || !strings.Contains(r.Detail, "needs arguments.manage_resource") {
		t.Errorf("SI-9.11: %s (%s), want executed-pass noting the execute skill's invocation half", r.Verdict, r.Detail)
	}
	for _, ex := range res.Exchanges {
		if strings.Contains(ex.Note, "freshly advertised binding of manage_resource") {
			t.Errorf("SI-9.11 invoked the execute-mode skill with a made-up request: %s", ex.Note)
		}
	}
}

// Latitude si.lat.nesting-in-arguments: "MUST enforce limits on … nesting" says not where a request's nesting is
// counted; an agent counting only its arguments failed SI-12.2i, whose probe nested message metadata only (issue #40).
func TestLatitudeNestingInArguments(t *testing.T) {
	latitude(t, mock.Options{NestingInArguments: true}, "SI-12.2i", "SI-12.3a")
}

// A SendMessage reply whose task is still in progress (as if returnImmediately had been asked) is followed with
// GetTask until it settles, so no row grades the WORKING snapshot (issue #40: such replies were never polled).
func TestInProgressReplyIsFollowed(t *testing.T) {
	set := sabotage.Set{}
	rows, _ := harnesstest.Run(t, mock.StartWith(mock.Options{InProgressReply: true}), set, nil, "schema-interface",
		harness.Options{Suites: []harness.Suite{schemaiface.Suite()}, Sabotage: set, Seed: 1})
	for id := range agentRows() {
		if r := rows[id]; r.Verdict == harness.ExecutedFail || r.Verdict == harness.NotTested {
			t.Errorf("%s: %s: %s", id, r.Verdict, r.Detail)
		}
	}
	if r := rows["SI-9.38a"]; r.Verdict != harness.ExecutedPass || !strings.Contains(r.Detail, "followed with GetTask") {
		t.Errorf("SI-9.38a: %s (%s), want executed-pass noting the task was followed", r.Verdict, r.Detail)
	}
}

// Latitude si.lat.embedded-dialect-fragment: an embedded resource's "$schema" with an empty fragment is the
// Schema Reference's dialect; SI-6.10 compared exact strings while compilation stripped the fragment (issue #40).
func TestLatitudeEmbeddedDialectFragment(t *testing.T) {
	latitude(t, mock.Options{EmbeddedDialectFragment: true}, "SI-6.10", "SI-6.7")
}
