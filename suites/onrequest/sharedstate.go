package onrequest

// SharedState names the rows that carry out actions or read what carrying them out leaves behind
// (harness.SharedStater): the operator's action log, reversals, and the limits on repeated requests (counted per
// skill, person or calling assistant over a window, whoever a request is for under some agents). They run
// ordered, never beside another part of a split run that reaches the agent. Every other row asks as a person of
// its own (newPerson) for information, or for an action a correct agent refers (no opt-in, nobody acted for, no
// attestation): nothing is carried out, so nothing lands in the log, and a limit that counts the request too
// still answers with a referral, which is what those rows read.
func (document) SharedState() map[string]string {
	const log = "the operator's action log, reversals and the limits on repeated requests"
	rows := map[string]string{}
	for _, r := range []string{"OR-3.6", "OR-5.7a", "OR-5.7b", "OR-5.7c", "OR-5.7d", "OR-5.7e", "OR-5.7f", "OR-5.7g",
		"OR-5.7h", "OR-5.8a"} {
		rows[r] = log
	}
	return rows
}
