// Package interview is the reference agent of the interview extension (https://agentsow.com/extensions/a2a-interview/v1):
// a reconciliation agent whose signed card declares the terms and interview extensions, serves its committed
// Agent SoW standing proposals over TLS, and answers the five interview methods by pure lookup from a cache built
// from its published bytes. Every sabotage toggle of the document is consulted where the requirement is honoured.
//
// Roles:
//
//	interview          the main agent: signed card, terms + interview, proposals served at /terms/<name>.sow.json
//	interview.noterms  the same agent without the terms extension: interview/terms answers declared false
//	interview.churn    an agent whose card (and answers) move to a new version at its first interview call, so
//	                   a verifier's first diff conflicts and its re-run (§7 rule 3) does not
package interview
