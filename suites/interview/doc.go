// Package interview is the conformance suite of the A2A interview extension
// (https://agentsow.com/extensions/a2a-interview/v1), rows IV-… of the catalog. Specs see only the target: the
// card URL of role "interview" (and, when the target provides them, "interview.noterms" and "interview.churn"),
// the operator's configuration and the recording client. See README.md for the row → spec → toggle table.
package interview
