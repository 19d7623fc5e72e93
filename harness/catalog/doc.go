// Package catalog holds the requirement rows of the five extension documents: every normative MUST, MUST NOT,
// REQUIRED and SHALL, every recommendation (SHOULD, SHOULD NOT, RECOMMENDED) and every declarative numbered rule
// an outside party can witness, quoted exactly, with how an outside party can witness it. Row ids are the keys everything
// else hangs off: spec labels, sabotage targets, verdicts and evidence.
package catalog
