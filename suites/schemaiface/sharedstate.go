package schemaiface

// SharedState names the rows that change the agent's state or read it back (harness.SharedStater): side-effecting
// requests the operator states, grants and their revocation, and the before/after reads that show a refused
// request had no effect. They run ordered, never beside another part of a split run that reaches the agent; every
// other row invokes side-effect-free skills only (sideEffectFree) or reads documents.
func (document) SharedState() map[string]string {
	const effects = "side-effecting requests and the reads that show their effect (or its absence)"
	const grants = "grants, approvals and revocations of the operator's principals"
	rows := map[string]string{"SI-6.5b": effects, "SI-9.37b": effects, "SI-12.2h": effects, "SI-12.2i": effects,
		"SI-12.3a": effects}
	for _, r := range []string{"SI-8.2b", "SI-8.3", "SI-8.6a", "SI-8.6b", "SI-8.7a", "SI-8.7b", "SI-8.7c", "SI-8.7d",
		"SI-8.7e", "SI-8.8", "SI-9.50d", "SI-9.57d", "SI-12.4b", "SI-12.5a", "SI-12.5b", "SI-12.5c", "SI-12.5d",
		"SI-12.5e", "SI-12.6", "SI-12.7a", "SI-12.7b", "SI-12.7c", "SI-12.8a", "SI-12.8b", "SI-12.8c"} {
		rows[r] = grants
	}
	return rows
}
