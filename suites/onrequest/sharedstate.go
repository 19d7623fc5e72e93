package onrequest

// SharedState names the rows that send action requests (harness.SharedStater): carrying out an action changes the
// operator's action log and the limits on repeated requests (counted per skill, person or calling assistant over
// a window), which the action rows read, and an agent that carries out what it should refer (an action for a
// client acting for nobody) turns a referral row into one that changes them too. So they run ordered, in their
// declaration order as in one process, never beside another part of a split run that reaches the agent. Every
// other row asks as a person of its own (newPerson) for information, which changes nothing another row reads.
func (document) SharedState() map[string]string {
	const log = "the operator's action log, reversals and the limits on repeated requests"
	rows := map[string]string{}
	for _, r := range []string{"OR-3.6", "OR-5.7a", "OR-5.7b", "OR-5.7c", "OR-5.7d", "OR-5.7e", "OR-5.7f", "OR-5.7g",
		"OR-5.7h", "OR-5.8a", "OR-3.8c", "OR-5.1", "OR-6.1b", "OR-6.1d", "OR-6.1e", "OR-6.1f", "OR-6.2"} {
		rows[r] = log
	}
	return rows
}
