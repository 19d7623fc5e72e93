package hostile

import (
	"strings"
	"testing"
	"time"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/mockagents/hostile"
	"github.com/extconf/extconf/suites/interview"
	"github.com/extconf/extconf/suites/schemaiface"
	"github.com/extconf/extconf/suites/terms"
)

// cardRows are terms agent rows: each reads the card (for role "terms") before anything else, so a card the
// harness cannot read fails every one of them. The consumer rows (which run the harness's own fixture server)
// are left out: they do not read the target.
var cardRows = []string{"TE-3.1", "TE-3.2a", "TE-3.3c", "TE-3.3d"}

// cardCase runs the terms agent rows against a card behaviour and requires each to fail naming subs.
func cardCase(t *testing.T, b hostile.Behaviour, bound time.Duration, subs ...string) *outcome {
	t.Helper()
	o := run(t, b, runSpec{suites: []harness.Suite{terms.Suite()}, rows: cardRows, bound: bound})
	for _, r := range cardRows {
		o.want(t, r, fail, subs...)
	}
	return o
}

// A card that never answers is one finding: the up-front probe blocks every row with one message naming the
// timeout, instead of each spec waiting out its own.
func TestNeverAnswers(t *testing.T) {
	o := run(t, hostile.NeverAnswers, runSpec{suites: []harness.Suite{terms.Suite()}, rows: cardRows, bound: 10 * time.Second})
	for _, r := range cardRows {
		o.want(t, r, blocked, "the target answered nothing", "limit exceeded: call-timeout (1s)")
	}
	if n := len(o.res.Exchanges); n != 1 {
		t.Errorf("%d exchanges with a dead card: want the one probe", n)
	}
	if o.wall < time.Second {
		t.Errorf("the run took %s: it cannot have waited for the call timeout", o.wall)
	}
}

func TestOneBytePerSecond(t *testing.T) {
	o := cardCase(t, hostile.OneBytePerSecond, 10*time.Second, "limit exceeded: call-timeout (1s)")
	if w := o.agent.Written(); w > 3 {
		t.Errorf("the agent wrote %d bytes: the harness waited far past the call timeout", w)
	}
}

func TestHugeBody(t *testing.T) {
	// A generous call timeout, so the size cap (not the clock of a loaded machine) is what stops the read.
	lim := testLimits()
	lim.CallTimeout = 15 * time.Second
	o := run(t, hostile.HugeBody, runSpec{suites: []harness.Suite{terms.Suite()}, rows: cardRows, bound: 20 * time.Second, limits: lim})
	for _, r := range cardRows {
		o.want(t, r, fail, "limit exceeded: max-body (8388608 bytes)")
	}
	// The agent announced 2 GiB; the harness stopped reading at the cap (TCP buffers let a few MiB more through).
	if w := o.agent.Written(); w >= 256<<20 {
		t.Errorf("the agent managed to write %d bytes: the harness kept reading past the cap", w)
	}
	if o.peak > 256<<20 {
		t.Errorf("peak heap %d bytes for a 2 GiB body", o.peak)
	}
}

func TestDeepNesting(t *testing.T) {
	cardCase(t, hostile.DeepNesting, 10*time.Second, "limit exceeded: max-json-depth (128 levels)")
}

func TestInvalidUTF8(t *testing.T) {
	cardCase(t, hostile.InvalidUTF8, 10*time.Second, "invalid JSON: invalid UTF-8 at byte")
}

func TestDuplicateMembers(t *testing.T) {
	o := cardCase(t, hostile.DuplicateMembers, 10*time.Second, `duplicate member name "name"`)
	// The harness must not have graded either reading of the card: no card was accepted for the run.
	if _, ok := o.res.Cards["terms"]; ok {
		t.Error("the card with duplicate members was recorded as a card seen")
	}
}

func TestHugeNumbers(t *testing.T) {
	cardCase(t, hostile.HugeNumbers, 10*time.Second, "number 1e400", "beyond the IEEE 754 double range")
}

func TestManySkills(t *testing.T) {
	cardCase(t, hostile.ManySkills, 20*time.Second, "limit exceeded: max-card-skills (1000 skills)", "lists 100000")
}

func TestRedirectLoop(t *testing.T) {
	o := cardCase(t, hostile.RedirectLoop, 10*time.Second, "limit exceeded: max-redirects (5)")
	if n := o.agent.Requests(); n > 8 {
		t.Errorf("the agent saw %d requests for one card fetch: the loop was followed too far", n)
	}
}

func TestRedirectOffOrigin(t *testing.T) {
	o := cardCase(t, hostile.RedirectOffOrig, 10*time.Second, "redirect to another origin refused")
	if !strings.Contains(o.rows["TE-3.1"].Detail, o.agent.Bystander().URL()[len("http://"):]) {
		t.Errorf("TE-3.1 does not name the other origin %s", o.agent.Bystander().URL())
	}
}

func TestRedirectToMetadata(t *testing.T) {
	cardCase(t, hostile.RedirectMetadata, 10*time.Second, "redirect to another origin refused", hostile.MetadataHost)
}

// ---- terms proposal URLs ----

// proposalRows: TE-3.3d fetches every entry's url (terms §8 allows third-party hosting, so an origin the run may
// not reach blocks it, naming what to allow); TE-3.3c judges the scheme statically.
var proposalRows = []string{"TE-3.3c", "TE-3.3d"}

func proposalCase(t *testing.T, b hostile.Behaviour, subs ...string) *outcome {
	t.Helper()
	o := run(t, b, runSpec{suites: []harness.Suite{terms.Suite()}, rows: proposalRows, bound: 15 * time.Second})
	o.want(t, "TE-3.3d", blocked, subs...)
	// The refusal happened before any dial: the proposal request was recorded with no response and no dial
	// went anywhere but the agent (checked by run).
	for _, ex := range o.res.Exchanges {
		if strings.Contains(ex.Note, "terms proposal") && ex.Status != 0 {
			t.Errorf("the proposal fetch got a response: %s", ex.Summary())
		}
	}
	return o
}

func TestProposalURLFile(t *testing.T) {
	o := proposalCase(t, hostile.ProposalFile, "not an http(s) URL", "nothing is read from disk")
	o.want(t, "TE-3.3c", fail, hostile.PasswdURL)
}

func TestProposalURLPrivate(t *testing.T) {
	proposalCase(t, hostile.ProposalPrivate, "off-origin private address "+hostile.PrivateHost)
}

func TestProposalURLMetadata(t *testing.T) {
	proposalCase(t, hostile.ProposalMetadata, "off-origin link-local address "+hostile.MetadataHost)
}

func TestProposalURLPublicName(t *testing.T) {
	proposalCase(t, hostile.ProposalPublicName, `off-origin host "`+hostile.PublicName+`"`, "limits.allowOrigins")
}

// ---- Skill Interface Documents (schema-interface agent suite) ----

func schemaCase(t *testing.T, b hostile.Behaviour, rows []string, bound time.Duration, lim a2a.Limits) *outcome {
	t.Helper()
	return run(t, b, runSpec{suites: []harness.Suite{schemaiface.Suite()}, rows: rows, bound: bound, limits: lim})
}

// The references rows: SI-6.7 (every $ref resolves inside resolution.schema) and SI-12.1 (no Schema Reference
// directs the client to fetch a schema).
var refRows = []string{"SI-6.7", "SI-12.1"}

func TestSchemaRefHTTP(t *testing.T) {
	o := schemaCase(t, hostile.SchemaRefHTTP, refRows, 20*time.Second, a2a.Limits{})
	for _, r := range refRows {
		o.want(t, r, fail, o.agent.Bystander().URL()+"/schemas/resource-id.json")
	}
}

func TestSchemaRefFile(t *testing.T) {
	o := schemaCase(t, hostile.SchemaRefFile, refRows, 20*time.Second, a2a.Limits{})
	for _, r := range refRows {
		o.want(t, r, fail, hostile.PasswdURL)
	}
}

func TestSchemaRefCycle(t *testing.T) {
	o := schemaCase(t, hostile.SchemaRefCycle, refRows, 20*time.Second, a2a.Limits{})
	for _, r := range refRows {
		o.want(t, r, fail, "cycle")
	}
}

func TestSchemaCatastrophicPattern(t *testing.T) {
	rows := []string{"SI-8.12", "SI-9.39"}
	o := schemaCase(t, hostile.SchemaPattern, rows, 20*time.Second, a2a.Limits{})
	for _, r := range rows {
		o.want(t, r, fail, "pattern", hostile.CatastrophicRE)
	}
}

func TestEndlessSSE(t *testing.T) {
	o := schemaCase(t, hostile.EndlessSSE, []string{"SI-9.38a"}, 20*time.Second, a2a.Limits{})
	o.want(t, "SI-9.38a", fail, "limit exceeded: stream-timeout (1.5s)")
}

func TestEndlessSSEEvents(t *testing.T) {
	lim := testLimits()
	lim.MaxSSEEvents = 500
	o := schemaCase(t, hostile.EndlessSSEEvents, []string{"SI-9.38a"}, 20*time.Second, lim)
	o.want(t, "SI-9.38a", fail, "limit exceeded: max-sse-events (500 events)")
}

// ---- card signatures (interview suite, IV-4.1a: §8 step 1 verifies the card's JWS) ----

var sigRows = []string{"IV-4.1a"}

func TestJWSAlgNone(t *testing.T) {
	o := run(t, hostile.JWSAlgNone, runSpec{suites: []harness.Suite{interview.Suite()}, rows: sigRows, bound: 20 * time.Second})
	o.want(t, "IV-4.1a", fail, `alg "none" is refused`)
}

func TestJWSJKUOffOrigin(t *testing.T) {
	o := run(t, hostile.JWSJKUOffOrigin, runSpec{suites: []harness.Suite{interview.Suite()}, rows: sigRows, bound: 20 * time.Second})
	// No key for the signature: blocked (the operator must supply trustedKeys), the jku named and not followed.
	o.want(t, "IV-4.1a", []string{harness.Blocked, harness.ExecutedFail}, "off-origin jku not followed", o.agent.Bystander().URL())
	o.nonePass(t, sigRows)
}

func TestJWSJKUMetadata(t *testing.T) {
	o := run(t, hostile.JWSJKUMetadata, runSpec{suites: []harness.Suite{interview.Suite()}, rows: sigRows, bound: 20 * time.Second})
	o.want(t, "IV-4.1a", []string{harness.Blocked, harness.ExecutedFail}, "off-origin jku not followed", "https://"+hostile.MetadataHost)
	o.nonePass(t, sigRows)
}

// ---- interface URLs (the run's own client: harness.Run's reach rule) ----

func TestInterfaceURLMetadata(t *testing.T) {
	o := run(t, hostile.InterfaceMetadata, runSpec{suites: []harness.Suite{interview.Suite()}, rows: sigRows, bound: 20 * time.Second})
	o.want(t, "IV-4.1a", fail, "off-origin link-local address "+hostile.MetadataHost)
	for _, ex := range o.res.Exchanges {
		if strings.Contains(ex.URL, hostile.MetadataHost) && ex.Status != 0 {
			t.Errorf("a call to the metadata service got a response: %s", ex.Summary())
		}
	}
}
