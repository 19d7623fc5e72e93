// Package certify wires the client certification engine (harness/clientcert) to this project's documents and
// reference agents: the scenarios per document, the verdicts of client rows no scenario reaches, and the
// counterpart starter (the reference agents, clean or with one agent-side toggle on). It lives outside harness/
// because it names mocks and toggles.
package certify
