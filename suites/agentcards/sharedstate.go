package agentcards

// SharedState names the rows that observe state the host keeps across callers (harness.SharedStater): they run
// ordered, never beside another part of a split run that reaches the host. Every other row reads the host's
// cards, inventory and refusals, which no caller's request changes.
func (document) SharedState() map[string]string {
	return map[string]string{"AC-D.9": "the runs made through R and the tenants' task lists"}
}
