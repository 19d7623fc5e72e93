package agentcards

import (
	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/target"
)

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
		{Member: "credential.tenant", Always: true, Given: credentialGiven("tenant"), What: "principal A's tenant identifier as the host knows it: credentials.<name>.tenant of the credential principals.A names", Rows: []string{"AC-B.2b", "AC-V2.2a"}},
		{Member: "credential.workspace", Given: credentialGiven("workspace"), What: "principal A's workspace identifier as the host knows it: credentials.<name>.workspace of the credential principals.A names (declare it absent on a host without workspaces)", Rows: []string{"AC-B.2c", "AC-V2.2b"}},
		{Member: "credential.id", Given: credentialGiven("id"), What: "principal A's own identifier as the host knows it: credentials.<name>.id of the credential principals.A names (declare it absent when the host shows callers none)", Rows: []string{"AC-B.2d", "AC-V2.2c"}},
		{Member: "principals.A-restricted", Given: func(cfg target.Config) bool { _, ok := principalFor(cfg, roleRestricted); return ok },
			What: "a caller that authenticates but GET /agents/{agentId} refuses (declare it absent when the host has no such caller)", Rows: []string{"AC-D.6b", "AC-V2.5b"}},
		// Whether A's and B's inventories share an agent is the host's state: config check --target lists both.
		{Member: "sharedAgent", Derived: true, What: "an agent in both A's and B's inventories with an a2aTenant (declare it absent when no agent is listed to two callers)", Rows: []string{"AC-B.2f"}},
		{Member: "degraded.A", What: "agentIds of A's inventory whose agents are degraded", Rows: []string{"AC-V2.4b"}},
	}
}

// credentialGiven reports whether principal A's credential carries the identifier field.
func credentialGiven(field string) func(cfg target.Config) bool {
	return func(cfg target.Config) bool {
		p, _ := principalFor(cfg, roleA)
		switch field {
		case "tenant":
			return p.Tenant != ""
		case "workspace":
			return p.Workspace != ""
		}
		return p.ID != ""
	}
}
