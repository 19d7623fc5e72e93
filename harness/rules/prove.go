package rules

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"strings"

	"github.com/extconf/extconf/harness/a2a"
)

// Bed is the reference agent a rule is proved against, as cmd started it.
type Bed struct {
	CardURL string             // the reference agent's card URL for the rule's role
	Client  func() *a2a.Client // a fresh recording client per evaluation
	Cert    tls.Certificate    // the proxy's server certificate (valid for 127.0.0.1, trusted by Client)
	CAs     *x509.CertPool     // what the proxy trusts upstream
}

// Proof is a rule's falsifiability record: clean, sabotaged and under each latitude.
type Proof struct {
	Rule      string           `json:"rule"`
	File      string           `json:"file,omitempty"`
	Document  string           `json:"document"`
	Level     string           `json:"level"`
	Witness   string           `json:"witness"`
	Source    string           `json:"source"`
	Restates  string           `json:"restates,omitempty"`
	Proposed  bool             `json:"proposed"` // always true: a data rule is never a published row
	Clean     *Outcome         `json:"clean"`
	Sabotage  *PatchedOutcome  `json:"sabotage"`
	Latitudes []PatchedOutcome `json:"latitudes"`
	Proven    bool             `json:"proven"`
	Why       []string         `json:"why,omitempty"` // why it is not proven
}

// PatchedOutcome is an evaluation against the agent behind a patching proxy.
type PatchedOutcome struct {
	ID         string   `json:"id,omitempty"` // the latitude's id
	Permits    string   `json:"permits,omitempty"`
	Target     string   `json:"target"`
	Applied    int      `json:"applied"` // answers the patch rewrote
	PatchError []string `json:"patchErrors,omitempty"`
	Outcome    *Outcome `json:"outcome"`
	Result     string   `json:"result"` // killed | survived (sabotage); survived | failed (latitude)
}

// Prove runs the rule against the clean reference agent (it must pass), with its sabotage patched in (its own
// check must fail: killed for the right reason), and under each latitude (it must pass).
func Prove(ctx context.Context, r *Rule, bed Bed) *Proof {
	p := &Proof{Rule: r.ID, File: r.File(), Document: r.Document, Level: r.Level, Witness: r.Witness,
		Source: r.Source, Restates: r.Restates, Proposed: true}
	p.Clean = Evaluate(ctx, bed.Client(), bed.CardURL, r)
	if p.Clean.Verdict != Pass {
		p.Why = append(p.Why, fmt.Sprintf("the check does not pass on the clean reference agent: %s", describe(p.Clean)))
	}

	s := patched(ctx, r, bed, r.Sabotage.Target, r.Sabotage.Ops)
	switch {
	case s.Applied == 0 || len(s.PatchError) > 0:
		s.Result = "not-applied"
		p.Why = append(p.Why, "the sabotage patch was not applied: "+patchTrouble(s))
	case s.Outcome.Verdict == Fail && s.Outcome.CheckFailed:
		s.Result = "killed"
	case s.Outcome.Verdict == Pass:
		s.Result = "survived"
		p.Why = append(p.Why, "the sabotage does not make the check fail (it passes with the patch applied)")
	default:
		s.Result = "wrong-reason"
		p.Why = append(p.Why, "with the sabotage on the rule did not fail on its own check: "+describe(s.Outcome))
	}
	p.Sabotage = &s

	for _, l := range r.Latitudes {
		lo := patched(ctx, r, bed, l.Target, l.Ops)
		lo.ID, lo.Permits = l.ID, l.Permits
		switch {
		case lo.Applied == 0 || len(lo.PatchError) > 0:
			lo.Result = "not-applied"
			p.Why = append(p.Why, fmt.Sprintf("latitude %s was not applied: %s", l.ID, patchTrouble(lo)))
		case lo.Outcome.Verdict == Pass:
			lo.Result = "survived"
		default:
			lo.Result = "failed"
			p.Why = append(p.Why, fmt.Sprintf("latitude %s (permitted: %s) is not accepted: %s", l.ID, l.Permits, describe(lo.Outcome)))
		}
		p.Latitudes = append(p.Latitudes, lo)
	}
	p.Proven = len(p.Why) == 0
	return p
}

func patched(ctx context.Context, r *Rule, bed Bed, target string, ops []Op) PatchedOutcome {
	po := PatchedOutcome{Target: target}
	px, err := StartProxy(bed.CardURL, bed.Cert, bed.CAs, r, target, ops)
	if err != nil {
		po.PatchError = []string{"proxy: " + err.Error()}
		po.Outcome = &Outcome{Rule: r.ID, Verdict: Blocked, Reason: err.Error()}
		return po
	}
	defer px.Close()
	po.Outcome = Evaluate(ctx, bed.Client(), px.CardURL, r)
	po.Applied, po.PatchError = px.Applied()
	return po
}

func patchTrouble(po PatchedOutcome) string {
	if len(po.PatchError) > 0 {
		return strings.Join(po.PatchError, "; ")
	}
	return fmt.Sprintf("no %s answer passed through the proxy", po.Target)
}

func describe(o *Outcome) string {
	switch o.Verdict {
	case Fail:
		return "executed-fail: " + o.Observed
	case Pass:
		return "executed-pass"
	default:
		return o.Verdict + ": " + o.Reason
	}
}

// Report is what `runsuite prove --json` writes: bundle-like, one proof per rule.
type Report struct {
	Kind          string   `json:"kind"` // "extconf-rule-proofs"
	Harness       any      `json:"harness,omitempty"`
	CatalogSHA256 string   `json:"catalogSha256,omitempty"`
	Started       string   `json:"started"`
	Proofs        []*Proof `json:"proofs"`
	Proven        bool     `json:"proven"`
	Note          string   `json:"note"`
}

// ReportNote says what a proof is not.
const ReportNote = "proposed rules: not part of the published catalog, never counted in a certification claim"
