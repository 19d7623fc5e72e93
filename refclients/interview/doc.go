// Package interview is the reference client of the Agent SoW A2A Interview Extension: it asks the five interview
// methods, runs the §8 procedure (card JWS, answers, probes, re-asking) and diffs every projected answer against
// the card and the terms proposals it commits to (via package terms). The interview suite grades agents with it.
package interview
