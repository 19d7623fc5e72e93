package agentcards

import "github.com/extconf/extconf/harness"

// Needs is the document's static input table: which rows block without which member of documents.agent-cards (runsuite
// config check reads it; a member may be declared absent under "absent"). Measured against the reference agent
// with only credentials given; a row is listed under the first member it misses.
// canariesAny is the member of a row that searches for every kind of canary: any one of them unblocks it.
const canariesAny = "canaries.systemPrompt|canaries.handoffSchema|canaries.credential"

func (document) Needs() []harness.Need {
	return []harness.Need{
		{Member: "routed.A", What: "per agent of A's inventory, the workflows the host routes to it", Rows: []string{"AC-B.2e", "AC-V2.3i"}},
		{Member: "workflowless.A", What: "agentIds of A's inventory with no workflow routed", Rows: []string{"AC-B.3a"}},
		{Member: "canaries.systemPrompt", What: "strings planted in agents' system prompts", Rows: []string{"AC-C.5a"}},
		{Member: "canaries.handoffSchema", What: "strings planted in agents' resolved handoff schemas", Rows: []string{"AC-C.5b"}},
		{Member: "canaries.credential", What: "agents' credential material, or canaries planted in it", Rows: []string{"AC-C.5c"}},
		{Member: canariesAny, What: "any canary: strings planted in agents' system prompts, handoff schemas or credentials", Rows: []string{"AC-V2.4"}},
		{Member: "degraded.A", What: "agentIds of A's inventory whose agents are degraded", Rows: []string{"AC-V2.4b"}},
	}
}
