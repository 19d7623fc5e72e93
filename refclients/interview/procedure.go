package interview

// The interview as procedure (§8), with the churn rule of §7 rule 3 and the honesty rules of §9 that bind what
// the verifier records.

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/evidence"
	"github.com/extconf/extconf/harness/verify"
	"github.com/extconf/extconf/sabotage"
)

// RunBy is who ran an interview and with what standing (§8): tier "self" (the agent's own party: a claim) or
// "third-party" (a platform or independent party: evidence).
type RunBy struct {
	Name string `json:"name"`
	Tier string `json:"tier"`
}

// Outcomes of the procedure.
const (
	Consistent     = "consistent"      // five answers, no persistent conflict, both probes drew the standard refusal
	Inconsistent   = "inconsistent"    // a persistent conflict, a missing answer or a wrong probe response
	NotImplemented = "not implemented" // the card does not declare the extension (states nothing, §9 rule 2)
	UnverifiedCard = "unverified card" // the card's JWS does not verify: there is no published declaration to diff against
	Incomplete     = "incomplete"      // the card could not be fetched or read
)

// Options shape one run of the procedure.
type Options struct {
	RunBy  RunBy
	Keys   *jose.JSONWebKeySet // card-signing keys the operator trusts; a same-origin jku is also read
	Header map[string][]string // credential for the interview calls, when the card requires one
	Set    sabotage.Faults     // client-side toggles
	Nonce  string              // makes the probes' names unique; random when empty
}

// Step is one step of §8 as it ran.
type Step struct {
	Name      string
	OK        bool
	Detail    string
	Exchanges []*a2a.Exchange
}

// Probe is one closure probe (§8 step 4).
type Probe struct {
	Name      string
	Reply     *Reply
	Correct   bool   // the standard refusal, mechanically produced
	Why       string // why not, when not
	CountedAs string // "pass" or "fail" in the record: a correct refusal is a correct response (§9 rule 3)
}

// Report is the recorded result of §8 step 5.
type Report struct {
	CardURL   string
	RunBy     *RunBy // who ran it (§8, §9 rule 4)
	Standing  string // "claim" (self-run) or "evidence" (third-party)
	Steps     []Step
	Declared  *Declared
	Replies   []*Reply   // the five answers the diff finally judged
	FirstDiff []Conflict // conflicts of the first round
	Conflicts []Conflict // persistent conflicts: non-conformance (§7 rule 3)
	Reran     bool       // the card was re-fetched and the five re-asked
	Probes    []Probe
	Passed    int
	Failed    int
	Outcome   string
}

// Reply returns the final reply to method.
func (r *Report) Reply(method string) *Reply {
	for _, x := range r.Replies {
		if x.Method == method {
			return x
		}
	}
	return nil
}

// Standing is the standing of a result run by by against an agent of provider: only a third-party run
// is evidence (§8), and a run by the agent's own provider organization is self-run whatever tier it states.
func Standing(by RunBy, provider string, set sabotage.Faults) string {
	if sabotage.From(set).On(sabotage.IVSelfTierUpgraded) {
		return "evidence"
	}
	own := provider != "" && strings.EqualFold(strings.TrimSpace(provider), strings.TrimSpace(by.Name))
	if by.Tier == "third-party" && strings.TrimSpace(by.Name) != "" && !own {
		return "evidence"
	}
	return "claim"
}

// Applicability is how the reference client reads a card's (non-)declaration of the interview.
type Applicability struct {
	Declared bool
	Verdict  string // for the interview rows when not declared: "inapplicable"
	Reason   string
}

// Applies reads the card: absence of the extension means the agent has not implemented it, nothing
// more (§9 rule 2): its rows are inapplicable, never failed, blocked or ranked.
func Applies(card *a2a.AgentCard, set sabotage.Faults) Applicability {
	if card != nil {
		if _, ok := card.Extension(URI); ok {
			return Applicability{Declared: true}
		}
	}
	a := Applicability{Verdict: "inapplicable",
		Reason: "the card does not declare " + URI + " in capabilities.extensions: the agent has not implemented the interview, which states nothing about it (interview §9 rule 2)"}
	if sabotage.From(set).On(sabotage.IVAbsenceAsDefect) {
		a.Reason = "the agent evades the interview: the extension is missing from its card, a defect"
	}
	if sabotage.From(set).On(sabotage.IVAbsenceLowersScore) {
		a.Verdict = "blocked"
	}
	return a
}

// Run runs the procedure of §8 against the agent whose card is at cardURL: fetch the card and verify its
// signature; activate and make the five calls; diff every projection (§7), re-fetching and re-asking once on a
// conflict; probe the closure; record who ran it. It never stops on the agent's answers, only when there is
// nothing to diff against.
func Run(ctx context.Context, c *a2a.Client, cardURL string, o Options) *Report {
	r := &Report{CardURL: cardURL}
	nonce := o.Nonce
	if nonce == "" {
		nonce = ivRandomNonce()
	}
	defer r.record(o)

	// Step 1.
	d, step := ivFetchCard(ctx, c, cardURL, o, "interview §8 step 1")
	r.Steps = append(r.Steps, step)
	if d == nil {
		r.Outcome = Incomplete
		if strings.HasPrefix(step.Detail, "card signature") {
			r.Outcome = UnverifiedCard
		}
		return r
	}
	if a := Applies(d.Card, o.Set); !a.Declared {
		r.Outcome = NotImplemented
		r.Steps = append(r.Steps, Step{Name: "applicability", OK: true, Detail: a.Reason})
		return r
	}
	r.Declared = d
	ep, err := EndpointOf(d.Card)
	if err != nil {
		r.Steps = append(r.Steps, Step{Name: "2 activate and make the five calls", Detail: err.Error()})
		r.Outcome = Incomplete
		return r
	}
	ep.Header = o.Header

	// Steps 2 and 3.
	r.Replies, step = ivAskFive(ctx, c, ep, "interview §8 step 2")
	r.Steps = append(r.Steps, step)
	r.FirstDiff = Diff(ctx, c, d, r.Replies, o.Set)
	r.Conflicts = r.FirstDiff
	r.Steps = append(r.Steps, ivDiffStep("3 diff every projection against the declared documents (§7)", r.FirstDiff, r.Replies))
	if len(r.FirstDiff) > 0 && !sabotage.From(o.Set).On(sabotage.IVVerifierChurnAsPersistent) {
		// §7 rule 3: a conflict on a fresh fetch may be churn; only one that survives a re-run counts.
		r.Reran = true
		d2, step := ivFetchCard(ctx, c, cardURL, o, "interview §7 rule 3 re-run")
		step.Name = "3a churn: re-fetch the card and verify its signature"
		r.Steps = append(r.Steps, step)
		if d2 != nil {
			d = d2
			r.Declared = d2
			if ep2, err := EndpointOf(d2.Card); err == nil {
				ep2.Header = o.Header
				ep = ep2
			}
			var st Step
			r.Replies, st = ivAskFive(ctx, c, ep, "interview §7 rule 3 re-run")
			st.Name = "3b churn: re-ask the five questions"
			r.Steps = append(r.Steps, st)
			r.Conflicts = Diff(ctx, c, d, r.Replies, o.Set)
			r.Steps = append(r.Steps, ivDiffStep("3c churn: diff again; what survives is persistent", r.Conflicts, r.Replies))
		}
	}

	// Step 4.
	skills := SkillIDs(d.Card)
	probes := []struct {
		name   string
		method string
		params map[string]any
	}{
		{"undefined method under activation", "interview/x-" + nonce, nil},
		{"interview/usage with a selector matching nothing", "interview/usage", map[string]any{"skill": ivUnmatchedSelector(skills, nonce)}},
	}
	for _, p := range probes {
		rep := Ask(ctx, c, ep, p.method, p.params, true, "interview §8 step 4 closure probe: "+p.name)
		pr := Probe{Name: p.name, Reply: rep}
		pr.Why = IsStandardRefusal(rep, skills)
		pr.Correct = pr.Why == ""
		pr.CountedAs = "fail"
		if pr.Correct && !sabotage.From(o.Set).On(sabotage.IVRefusalCountedAsFailure) {
			pr.CountedAs = "pass" // §9 rule 3: the standard refusal is the correct response
		}
		r.Probes = append(r.Probes, pr)
	}
	st := Step{Name: "4 probe the closure", OK: true}
	for _, p := range r.Probes {
		st.Exchanges = append(st.Exchanges, p.Reply.Exchange)
		if !p.Correct {
			st.OK = false
			st.Detail += p.Name + ": " + p.Why + "; "
		}
	}
	r.Steps = append(r.Steps, st)

	// Step 5 (the deferred record) counts.
	for _, m := range Methods {
		if x := r.Reply(m); x != nil && x.Answer != nil && x.Answer.Malformed == "" {
			r.Passed++
		} else {
			r.Failed++
		}
	}
	for _, x := range r.Replies {
		if x.Answer != nil {
			r.Passed += len(x.Answer.Projections)
		}
	}
	r.Passed -= len(r.Conflicts)
	r.Failed += len(r.Conflicts)
	for _, p := range r.Probes {
		if p.CountedAs == "pass" {
			r.Passed++
		} else {
			r.Failed++
		}
	}
	r.Outcome = Consistent
	if r.Failed > 0 {
		r.Outcome = Inconsistent
	}
	return r
}

// record is §8 step 5: who ran it and with what standing travel with the result.
func (r *Report) record(o Options) {
	if !sabotage.From(o.Set).On(sabotage.IVResultOmitsRunner) {
		by := o.RunBy
		if by.Tier == "" {
			by.Tier = "self" // an unstated tier is never upgraded to evidence
		}
		r.RunBy = &by
	}
	provider := ""
	if r.Declared != nil && r.Declared.Card.Provider != nil {
		provider = r.Declared.Card.Provider.Organization
	}
	r.Standing = Standing(o.RunBy, provider, o.Set)
	r.Steps = append(r.Steps, Step{Name: "5 record the result", OK: true,
		Detail: fmt.Sprintf("outcome %s; standing %s", r.Outcome, r.Standing)})
}

// ivFetchCard is §8 step 1 (and its churn repeat): fetch, decode, verify the JWS.
func ivFetchCard(ctx context.Context, c *a2a.Client, cardURL string, o Options, note string) (*Declared, Step) {
	st := Step{Name: "1 fetch the card and verify its signature"}
	card, ex, err := c.FetchCard(ctx, cardURL, a2a.Call{Note: note + ": fetch the card"})
	st.Exchanges = append(st.Exchanges, ex)
	if err != nil {
		st.Detail = "card fetch: " + err.Error()
		return nil, st
	}
	status, exs, err := CardSignature(ctx, c, cardURL, ex.ResponseBody, o.Keys, o.Set)
	st.Exchanges = append(st.Exchanges, exs...)
	if err != nil {
		st.Detail = err.Error()
		return nil, st
	}
	d, err := NewDeclared(cardURL, ex.ResponseBody, card, ex)
	if d != nil {
		d.TrustedKeys = o.Keys
	}
	if err != nil {
		st.Detail = "card decode: " + err.Error()
		return nil, st
	}
	st.OK, st.Detail = true, status
	return d, st
}

// CardSignature verifies the card's JWS (A2A §8.4) as §7 rule 1 and §8 step 1 ask, with the operator's
// trusted keys plus the JWK Set a signature's jku names on the card's own origin (fetched through the recording
// client; any other jku is not followed). A card with no signatures is reported "unsigned" and diffed as served.
func CardSignature(ctx context.Context, c *a2a.Client, cardURL string, raw []byte, trusted *jose.JSONWebKeySet, set sabotage.Faults) (string, []*a2a.Exchange, error) {
	if sabotage.From(set).On(sabotage.IVVerifierSkipsCardSignature) {
		return "signature not checked", nil, nil
	}
	var top struct {
		Signatures []struct {
			Protected string `json:"protected"`
		} `json:"signatures"`
	}
	if err := json.Unmarshal(raw, &top); err != nil {
		return "", nil, fmt.Errorf("card signature: the card is not a JSON object: %v", err)
	}
	if len(top.Signatures) == 0 {
		return "unsigned: the card carries no signatures; diffed against the card as served", nil, nil
	}
	keys := &jose.JSONWebKeySet{}
	if trusted != nil {
		keys.Keys = append(keys.Keys, trusted.Keys...)
	}
	var exs []*a2a.Exchange
	seen := map[string]bool{}
	var offOrigin []string // named in the error: a jku elsewhere is an attack surface, never a key source
	for _, s := range top.Signatures {
		jku := ivProtectedJKU(s.Protected)
		if jku != "" && !ivSameOrigin(jku, cardURL) && len(offOrigin) < 4 {
			offOrigin = append(offOrigin, ivClipText(jku, 200))
		}
		if jku == "" || seen[jku] || !ivSameOrigin(jku, cardURL) {
			continue
		}
		seen[jku] = true
		body, ex, err := c.FetchJSON(ctx, jku, a2a.Call{Note: "interview §8 step 1: card signing keys (jku, the card's origin)"})
		exs = append(exs, ex)
		if err != nil {
			continue // the signature check below names the unknown kid
		}
		var set jose.JSONWebKeySet
		if json.Unmarshal(body, &set) == nil {
			for _, k := range set.Keys {
				if k.IsPublic() {
					keys.Keys = append(keys.Keys, k)
				}
			}
		}
	}
	res, err := verify.CardSignatureAny(raw, keys) // A2A §8.4.3: at least one signature verifies (rotation)
	if err != nil && len(offOrigin) > 0 {
		return "", exs, fmt.Errorf("card signature: %w (off-origin jku not followed: %s)", err, strings.Join(offOrigin, ", "))
	}
	if err != nil {
		return "", exs, fmt.Errorf("card signature: %w", err)
	}
	var kids []string
	for _, r := range res {
		kids = append(kids, r.Alg+" kid "+r.KID)
	}
	return "verified: " + strings.Join(kids, ", "), exs, nil
}

func ivProtectedJKU(protected string) string {
	b, err := base64.RawURLEncoding.DecodeString(protected)
	if err != nil {
		return ""
	}
	var h struct {
		JKU string `json:"jku"`
	}
	_ = json.Unmarshal(b, &h)
	return h.JKU
}

func ivSameOrigin(a, b string) bool {
	ua, err1 := url.Parse(a)
	ub, err2 := url.Parse(b)
	return err1 == nil && err2 == nil && ua.Scheme == ub.Scheme && strings.EqualFold(ua.Host, ub.Host) &&
		(ua.Scheme == "https" || ua.Scheme == "http")
}

func ivAskFive(ctx context.Context, c *a2a.Client, ep Endpoint, note string) ([]*Reply, Step) {
	st := Step{Name: "2 activate the extension and make the five calls", OK: true}
	var out []*Reply
	for _, m := range Methods {
		r := Ask(ctx, c, ep, m, nil, true, note+": "+m)
		out = append(out, r)
		st.Exchanges = append(st.Exchanges, r.Exchange)
		switch {
		case r.Answer == nil:
			st.OK = false
			st.Detail += m + ": no answer (" + r.Observed() + "); "
		case r.Answer.Malformed != "":
			st.OK = false
			st.Detail += m + ": " + r.Answer.Malformed + "; "
		}
	}
	return out, st
}

func ivDiffStep(name string, cs []Conflict, replies []*Reply) Step {
	n := 0
	for _, r := range replies {
		if r.Answer != nil {
			n += len(r.Answer.Projections)
		}
	}
	st := Step{Name: name, OK: len(cs) == 0, Detail: fmt.Sprintf("%d projections, %d conflicts", n, len(cs))}
	for _, c := range cs {
		st.Detail += "; " + c.String()
	}
	return st
}

// ivUnmatchedSelector is a selector equal to no declared id.
func ivUnmatchedSelector(skills []string, nonce string) string {
	s := "x-no-skill-" + nonce
	for slices.Contains(skills, s) {
		s += "-x"
	}
	return s
}

func ivRandomNonce() string {
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "0000"
	}
	return hex.EncodeToString(b[:])
}

// Render writes the record for people: the standing first, then who ran it, the steps, the conflicts and the
// probes, each probe with how it was counted.
func (r *Report) Render(w io.Writer) {
	if r.Standing == "evidence" {
		fmt.Fprintf(w, "INTERVIEW RESULT: EVIDENCE (recorded by a third party)\n")
	} else {
		fmt.Fprintf(w, "INTERVIEW RESULT: CLAIM, NOT EVIDENCE (self-run)\n")
	}
	if r.RunBy != nil {
		name := r.RunBy.Name
		if name == "" {
			name = "an unnamed runner"
		}
		fmt.Fprintf(w, "run by: %s (tier %s)\n", name, r.RunBy.Tier)
	} else {
		fmt.Fprintf(w, "run by: not recorded\n")
	}
	fmt.Fprintf(w, "card: %s\noutcome: %s (%d passed, %d failed)\n", r.CardURL, r.Outcome, r.Passed, r.Failed)
	for _, s := range r.Steps {
		mark := "ok"
		if !s.OK {
			mark = "FAILED"
		}
		fmt.Fprintf(w, "  step %s: %s", s.Name, mark)
		if s.Detail != "" {
			fmt.Fprintf(w, ": %s", ivClipText(s.Detail, 600))
		}
		fmt.Fprintln(w)
		for _, ex := range s.Exchanges {
			if ex != nil {
				fmt.Fprintf(w, "      %s\n", ex.Summary())
			}
		}
	}
	for _, c := range r.Conflicts {
		fmt.Fprintf(w, "  persistent conflict: %s\n", c)
	}
	for _, p := range r.Probes {
		what := "the standard refusal (correct response)"
		if !p.Correct {
			what = "not the standard refusal: " + p.Why
		}
		fmt.Fprintf(w, "  probe %s: %s; counted as %s\n", p.Name, what, p.CountedAs)
	}
}

// ChurnAsPersistent reports the verifier fault that reads a one-off card change (churn) as a persistent conflict;
// the interview suite's §7 specs ask it here so that they never consult the sabotage registry themselves.
func ChurnAsPersistent(f sabotage.Faults) bool {
	return sabotage.From(f).On(sabotage.IVVerifierChurnAsPersistent)
}

// RendererFaults are the §9 renderer faults switched on in f, as the evidence renderer takes them.
func RendererFaults(f sabotage.Faults) evidence.StandingOptions {
	return evidence.StandingOptions{SelfAsEvidence: sabotage.From(f).On(sabotage.IVRendererSelfAsEvidence)}
}
