package agentcards

// SharedState names the rows that observe state the host keeps across callers (harness.SharedStater): none. The
// rows read the host's cards, inventories and refusals, which no caller's request changes; the one row that
// makes runs (AC-D.9) observes only its own run (whether B is served that id), which another caller's runs
// cannot show or hide. The setup's runs of A's (one per process) do not change what any row asserts.
func (document) SharedState() map[string]string { return map[string]string{} }
