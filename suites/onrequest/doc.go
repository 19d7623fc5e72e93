// Package onrequest is the conformance suite of "On Request: an A2A extension" 0.1 (rows OR-…): the card's
// declaration (§3), the agent's behaviour for clients acting for a person or for nobody, activated or not (§5),
// the reply metadata (§6), and the reference assistant relay (OR-5.8, OR-6.3). Specs see only the target: card
// URLs by role, the target configuration and the operator statement (README.md).
package onrequest
