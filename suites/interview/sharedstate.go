package interview

// SharedState names the rows that observe state the agent keeps across callers (harness.SharedStater): they run
// ordered, never beside another part of a split run that reaches the interview agent. Every other row compares
// answers that project the card and its committed proposals, which no interview call changes (§4.2).
func (document) SharedState() map[string]string {
	const tasks = "the agent's task list (ListTasks before and after; another caller's task would show)"
	return map[string]string{
		"IV-4.2a": "the agent unchanged between two identical calls",
		"IV-4.2b": "the card and an existing task unchanged by interview calls",
		"IV-4.2c": tasks,
		"IV-4.2d": tasks,
		"IV-5.2":  "the served card over re-fetches (churn)",
	}
}
