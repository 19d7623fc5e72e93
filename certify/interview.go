package certify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/extconf/extconf/fixtures/sow"
	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness/a2atest"
	cc "github.com/extconf/extconf/harness/clientcert"
	"github.com/extconf/extconf/harness/verify"
	vinterview "github.com/extconf/extconf/refclients/interview"
	"github.com/extconf/extconf/sabotage"
)

const (
	ivDoc   = "interview"
	ivRole  = "interview"
	ivClean = "iv.interview.third-party"
	// ivAbsentRole is the interview reference agent with the interview entry taken out of its card (re-signed): the
	// otherwise identical agent that does not declare the extension (interview §9 rule 2).
	ivAbsentRole = "interview.absent"
	ivThird      = "conformance-lab.example"
	ivSelf       = "vendor-self.example"
)

// resignCard re-signs a card the proxy rewrote, with the test card key the reference agents sign with, so that the
// card names the proxy (its jku too) and still verifies; drop, when set, is an extension URI taken out of the card
// first. A card whose upstream signature does not verify with the test keys (an agent-side toggle broke it), or
// that carries more than one signature, is served as rewritten, so it stays unverifiable. Other bodies (the
// interview's answers project the card's /signatures) get the new signature in place of the old one.
func resignCard(drop string) func(upstream, rewritten []byte, origin string) []byte {
	var mu sync.Mutex
	var swaps [][2][]byte // old → new protected header and signature values
	return func(upstream, rewritten []byte, origin string) []byte {
		var m map[string]json.RawMessage
		if json.Unmarshal(rewritten, &m) != nil || m["signatures"] == nil {
			mu.Lock()
			defer mu.Unlock()
			for _, sw := range swaps {
				rewritten = bytes.ReplaceAll(rewritten, sw[0], sw[1])
			}
			return rewritten
		}
		var keys jose.JSONWebKeySet
		if json.Unmarshal(testpki.CardJWKS(), &keys) != nil {
			return rewritten
		}
		var old []struct{ Protected, Signature string }
		if json.Unmarshal(m["signatures"], &old) != nil || len(old) != 1 {
			return rewritten
		}
		if _, err := verify.CardSignatureAny(upstream, &keys); err != nil {
			return rewritten
		}
		delete(m, "signatures")
		if drop != "" {
			var caps map[string]json.RawMessage
			_ = json.Unmarshal(m["capabilities"], &caps)
			var exts []json.RawMessage
			_ = json.Unmarshal(caps["extensions"], &exts)
			var kept []json.RawMessage
			for _, x := range exts {
				var e struct {
					URI string `json:"uri"`
				}
				if json.Unmarshal(x, &e) == nil && e.URI == drop {
					continue
				}
				kept = append(kept, x)
			}
			caps["extensions"], _ = json.Marshal(kept)
			m["capabilities"], _ = json.Marshal(caps)
		}
		b, err := json.Marshal(m)
		if err != nil {
			return rewritten
		}
		signer := &a2atest.CardSigner{Key: testpki.CardKeyES256(), Alg: "ES256", KID: testpki.KIDES256, JKU: true}
		out, err := signer.Sign(b, origin+a2atest.JWKSPath)
		if err != nil {
			return rewritten
		}
		var now struct {
			Signatures []struct{ Protected, Signature string }
		}
		if json.Unmarshal(out, &now) == nil && len(now.Signatures) == 1 {
			mu.Lock()
			swaps = append(swaps, [2][]byte{[]byte(old[0].Protected), []byte(now.Signatures[0].Protected)},
				[2][]byte{[]byte(old[0].Signature), []byte(now.Signatures[0].Signature)})
			mu.Unlock()
		}
		return out
	}
}

// ivResult is the verifier's recorded result, or a blocked judgement when it reported none.
func ivResult(o *cc.Observation) (*cc.InterviewResult, *cc.Judgement) {
	r := o.Reply()
	if r == nil || r.Interview == nil {
		j := cc.Block("positive control failed: the verifier reports an interview result — " + o.Describe())
		return nil, &j
	}
	return r.Interview, nil
}

func ivJudge(judge func(o *cc.Observation, r *cc.InterviewResult) cc.Judgement) func(*cc.Observation) cc.Judgement {
	return func(o *cc.Observation) cc.Judgement {
		r, blocked := ivResult(o)
		if blocked != nil {
			return *blocked
		}
		return judge(o, r)
	}
}

func ivText(r *cc.InterviewResult) string {
	by := "no runner recorded"
	if r.RunBy != nil {
		by = fmt.Sprintf("run by %q tier %q", r.RunBy.Name, r.RunBy.Tier)
	}
	return fmt.Sprintf("outcome %s, standing %s, %s, %d passed %d failed, %d probes", r.Outcome, r.Standing, by, r.Passed, r.Failed, len(r.Probes))
}

// ivNegated: every "evidence" in a display is negated ("CLAIM, NOT EVIDENCE", "not evidence", "never evidence")
// within the few words before it. A display may name the word; it must not present the result as evidence.
func ivPresentsEvidence(display string) bool {
	low := strings.ToLower(display)
	for i := strings.Index(low, "evidence"); i >= 0; {
		before := low[max(0, i-40):i]
		if !ivNegation.MatchString(before) {
			return true
		}
		j := strings.Index(low[i+1:], "evidence")
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

var (
	ivNegation = regexp.MustCompile(`\b(not|never|no)\b`)
	// ivLoaded are the words that read absence as evasion or a defect (interview §9 rule 2).
	ivLoaded = regexp.MustCompile(`(?i)evad|evasi|defect|non-?conform|violat`)
)

// Interview returns the interview verifier scenarios: the interview action against the interview reference agent,
// run by a named third party, by the agent's own party, by its provider organization claiming third-party, by no
// one; against a probe answered wrongly; and against the same agent without the extension.
func Interview() []cc.Scenario {
	sc := func(id, desc, role string, toggle sabotage.ID, name, tier string, checks ...cc.Check) cc.Scenario {
		s := cc.Scenario{ID: id, Document: ivDoc, Role: role, Action: cc.ActionInterview, Description: desc, Control: ivClean,
			Env: map[string]string{cc.EnvRunnerName: name, cc.EnvRunnerTier: tier}, Checks: checks}
		if toggle != "" {
			s.Toggles = []string{string(toggle)}
		}
		return s
	}
	runBy := cc.Check{Rows: []string{"IV-9.4a"}, Expect: "the recorded result names its runner " + ivThird + " and tier third-party, and its display shows both",
		Judge: ivJudge(func(o *cc.Observation, r *cc.InterviewResult) cc.Judgement {
			ok := r.RunBy != nil && r.RunBy.Name == ivThird && r.RunBy.Tier == "third-party"
			shown := r.Display == "" || (strings.Contains(r.Display, ivThird) && strings.Contains(r.Display, "third-party"))
			return cc.Judge(ok && shown, ivText(r)+"; display "+clip(r.Display, 200), lastEx(o))
		})}
	probes := cc.Check{Rows: []string{"IV-9.3"}, Expect: "against the correct agent every closure probe draws the standard refusal and is counted as a pass; nothing fails, the result is consistent",
		Judge: ivJudge(func(o *cc.Observation, r *cc.InterviewResult) cc.Judgement {
			if len(r.Probes) == 0 {
				return cc.Block("the verifier reports no closure probe (§8 step 4): how it counts a correct refusal is not shown — " + ivText(r))
			}
			for _, p := range r.Probes {
				if p.CountedAs != "pass" {
					return cc.Fail(fmt.Sprintf("probe %q (correct %v) counted as %q; %s", p.Name, p.Correct, p.CountedAs, ivText(r)), lastEx(o))
				}
			}
			return cc.Judge(r.Failed == 0 && r.Outcome == vinterview.Consistent, ivText(r), lastEx(o))
		})}
	evidenceCtl := cc.Check{Rows: []string{"IV-9.4b"}, Expect: "a named third party's run is recorded as evidence (the control for the self-run scenarios)",
		Judge: ivJudge(func(o *cc.Observation, r *cc.InterviewResult) cc.Judgement {
			if r.Standing != "evidence" {
				return cc.Block("positive control failed: the verifier records a named third party's run as evidence — " + ivText(r))
			}
			return cc.Pass(ivText(r), lastEx(o))
		})}
	claim := func(row, what string) cc.Check {
		return cc.Check{Rows: []string{row}, Expect: what + ": the result is recorded with standing claim, never evidence",
			Judge: ivJudge(func(o *cc.Observation, r *cc.InterviewResult) cc.Judgement {
				return cc.Judge(r.Standing == "claim", ivText(r), lastEx(o))
			})}
	}
	clean := sc(ivClean, "the correct interview agent, interviewed by a named third party", ivRole, "", ivThird, "third-party", runBy, probes, evidenceCtl)
	clean.Control = ""
	return []cc.Scenario{
		clean,
		sc("iv.interview.self", "the correct interview agent, interviewed by the agent's own party (tier self)", ivRole, "", ivSelf, "self",
			claim("IV-9.4b", "a self-run interview"),
			cc.Check{Rows: []string{"IV-9.4b"}, Expect: "the recorded tier stays self",
				Judge: ivJudge(func(o *cc.Observation, r *cc.InterviewResult) cc.Judgement {
					return cc.Judge(r.RunBy == nil || r.RunBy.Tier == "self", ivText(r), lastEx(o))
				})},
			cc.Check{Rows: []string{"IV-8.1"}, Expect: "the self-run result is recorded as a claim and its display says claim and never presents it as evidence",
				Judge: ivJudge(func(o *cc.Observation, r *cc.InterviewResult) cc.Judgement {
					ok := r.Standing == "claim" && (r.Display == "" || (strings.Contains(strings.ToLower(r.Display), "claim") && !ivPresentsEvidence(r.Display)))
					return cc.Judge(ok, ivText(r)+"; display "+clip(r.Display, 200), lastEx(o))
				})}),
		sc("iv.interview.unnamed", "the correct interview agent; no runner and no tier given", ivRole, "", "", "",
			claim("IV-9.4b", "a run naming no runner and no tier")),
		sc("iv.interview.provider", "the correct interview agent, interviewed by its own provider organization ("+sow.ProviderOwner+") stating tier third-party",
			ivRole, "", sow.ProviderOwner, "third-party", claim("IV-9.4b", "a run by the card's provider organization")),
		sc("iv.interview.probe-wrong-reason", "a closure probe draws a refusal with the wrong reason (not the standard refusal)", ivRole, sabotage.IVRefusalWrongReason, ivThird, "third-party",
			cc.Check{Rows: []string{"IV-9.3"}, Expect: "a wrong probe response is not recorded as consistent (the verifier tells a correct refusal from a wrong one)",
				Judge: ivJudge(func(o *cc.Observation, r *cc.InterviewResult) cc.Judgement {
					if r.Outcome == vinterview.Consistent {
						return cc.Block("the verifier records a wrong probe response as consistent: that it counts correct refusals as passes cannot be told from counting everything as a pass — " + ivText(r))
					}
					return cc.Pass(ivText(r), lastEx(o))
				})}),
		sc("iv.interview.absent", "the same agent with the interview entry taken out of its card (re-signed)", ivAbsentRole, "", ivThird, "third-party",
			cc.Check{Rows: []string{"IV-9.2a"}, Expect: "the verifier records not-implemented, and its reason and display read no evasion or defect into the absence",
				Judge: ivJudge(func(o *cc.Observation, r *cc.InterviewResult) cc.Judgement {
					words := ivLoaded.FindAllString(r.Reason+"\n"+r.Display, -1)
					return cc.Judge(r.Outcome == "not-implemented" && len(words) == 0,
						fmt.Sprintf("%s; reason %q; loaded words %q", ivText(r), clip(r.Reason, 200), words), lastEx(o))
				})},
			cc.Check{Rows: []string{"IV-9.2b"}, Expect: "absence lowers nothing: no failure counted, and the same reply outcome and exit status as for the otherwise identical agent that declares it",
				Judge: ivJudge(func(o *cc.Observation, r *cc.InterviewResult) cc.Judgement {
					ctl := o.Control
					same := ctl != nil && ctl.Outcome() == o.Outcome() && ctl.Invocation.ExitCode == o.Invocation.ExitCode
					ctlExit := -1
					if ctl != nil {
						ctlExit = ctl.Invocation.ExitCode
					}
					return cc.Judge(r.Failed == 0 && same, fmt.Sprintf("%s; exit %d (declaring agent: exit %d)", ivText(r), o.Invocation.ExitCode, ctlExit), lastEx(o))
				})}),
	}
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
