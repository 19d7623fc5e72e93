// Package agents holds agents written independently of the project's reference agents, one per document, each
// from the document's text alone (examples/agents/<document>/), with the configuration its operator would write
// (target.json: facts and absence declarations only). The test runs the certification path against each: the
// configuration as committed ends PASSED (exit 0), and without any one of its facts INCOMPLETE (exit 4) naming it.
package agents
