package evidence

import (
	"fmt"
	"strings"

	"github.com/extconf/extconf/harness"
)

// Headline is the first line every renderer shows (terminal summary, JUnit, HTML): what a reader may take the
// bundle to be, given what was checked. rep is the outcome of VerifyBundle on it (nil: not verified).
//
//   - a bundle that does not verify: "UNVERIFIED: …", never evidence and never a trustworthy claim;
//   - a bundle that states it is evidence (signed, third-party) reads EVIDENCE only when its signature verified
//     with a pinned key (VerifyOptions.Key: `--key`, the runner's published public key, or the key the run itself
//     signed with). With only the key the bundle embeds, anyone could have re-signed it: "signed by an unpinned
//     key: integrity only";
//   - otherwise the claim banner of Standing.
//
// Standing is what the bundle states about itself; Headline is what a renderer may say.
//
// An incomplete run's headline ends with its reason ("INCOMPLETE: 0 failed, N blocked (what to state)"), so the
// first line a reader sees already says what to state or fix.
func Headline(b *Bundle, rep *Report) string {
	h := standingOf(b, rep)
	if b.Status == harness.StatusIncomplete {
		h += " — " + StatusLine(b)
	}
	return h
}

// standingOf is the headline without the incomplete run's reason.
func standingOf(b *Bundle, rep *Report) string {
	if rep != nil && !rep.OK() {
		who := b.Runner.Name
		if who == "" {
			who = "an unnamed runner"
		}
		return fmt.Sprintf("UNVERIFIED: the bundle does not pass offline verification (%d problems); it states %s, run by %q (tier %s)",
			len(rep.Problems()), strings.ToUpper(b.Status), who, b.Runner.Tier)
	}
	if !isEvidence(b) || Pinned(rep) {
		return b.Standing()
	}
	return fmt.Sprintf("UNPINNED: %s third-party run by %q, signed by an unpinned key: integrity only (key %s; check who signed with `runsuite verify --key FILE`, the runner's published public key)",
		strings.ToUpper(b.Status), b.Runner.Name, b.Signature.Thumbprint)
}

// Pinned reports whether rep checked a valid signature with a pinned key (not the key the bundle embeds).
func Pinned(rep *Report) bool {
	return rep != nil && rep.OK() && rep.Signature.Signed && rep.Signature.Valid && rep.Signature.KeySource == "--key"
}

// readsAsEvidence is what renderers present as evidence: a bundle that states it is evidence, verified with a
// pinned key.
func readsAsEvidence(b *Bundle, rep *Report) bool { return isEvidence(b) && Pinned(rep) }
