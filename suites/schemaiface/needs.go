package schemaiface

import "github.com/extconf/extconf/harness"

// Needs is the document's static input table: which rows block without which member of documents.schema-interface
// when probing cannot derive it either (runsuite config check reads it after the same derivation a run makes,
// derive.go; a member may be declared absent under "absent"). A row is listed under the first member it misses.
// Against the reference agent with only the two credentials, the run derives arguments, the degraded skills,
// authorization.skill / modes / constraint, constraints and limits, and blocks the rows of the members left:
// semantic, multiOperation, approvalSkills, approval, revocation, authorization.resource / operation,
// faultInput, sensitive, staleBinding.
func (document) Needs() []harness.Need {
	return []harness.Need{
		{Member: "arguments|requests", Always: true, What: "valid arguments for an advertised skill", Rows: []string{"SI-12.5a", "SI-12.8a", "SI-4.1a", "SI-6.15", "SI-8.12", "SI-8.13", "SI-8.15", "SI-8.7a", "SI-9.34", "SI-9.35a", "SI-9.35b", "SI-9.37a", "SI-9.37b", "SI-9.38a", "SI-9.38b", "SI-9.38c", "SI-9.39", "SI-9.40", "SI-9.41a", "SI-9.41b", "SI-9.41c", "SI-9.42", "SI-9.43a", "SI-9.43b", "SI-9.46a", "SI-9.46b", "SI-9.47", "SI-9.48", "SI-9.48b", "SI-9.49a", "SI-9.50a", "SI-9.50b", "SI-9.52b", "SI-9.54a", "SI-9.54b", "SI-9.56a", "SI-9.57a", "SI-9.58a", "SI-9.65b"}},
		{Member: "semantic", What: "a structurally valid, semantically invalid request, a valid one, and a read showing its target", Rows: []string{"SI-6.5b"}},
		{Member: "authorization.skill", What: "a request of principal A that principal B holds no grant for", Rows: []string{"SI-12.5b", "SI-12.7a", "SI-12.7b", "SI-12.8b", "SI-8.7b", "SI-9.50d"}},
		{Member: "authorization.modes.observe_only|authorization.skill", What: "an observe_only skill principal A may use and principal B may not", Rows: []string{"SI-12.4b", "SI-8.2b"}},
		{Member: "authorization.modes", What: "per advertised default_mode, a request of principal A that principal B may not make", Rows: []string{"SI-8.3"}},
		{Member: "authorization.resource", What: "a request principal B may make and one beyond its resource grant", Rows: []string{"SI-12.5c", "SI-8.7c", "SI-9.57d"}},
		{Member: "authorization.resource.canaries", What: "strings of the denied resource principal B must never see", Rows: []string{"SI-9.57d"}},
		{Member: "authorization.operation", What: "a request principal B may make and one beyond its operation grant", Rows: []string{"SI-12.5d", "SI-8.6a", "SI-8.7d"}},
		{Member: "authorization.constraint", What: "a request principal B may make and one beyond its constraint grant", Rows: []string{"SI-12.5e", "SI-8.7e"}},
		{Member: "multiOperation", What: "a multi-operation skill, its selector member, operations and arguments per operation", Rows: []string{"SI-8.4a", "SI-8.4b", "SI-8.4c"}},
		{Member: "multiOperation.requires", What: "per operation, a member only that operation requires", Rows: []string{"SI-8.4c"}},
		{Member: "approvalSkills", What: "skills with an operation that may require approval under deployment policy", Rows: []string{"SI-8.5"}},
		{Member: "approval", What: "approved and unapproved requests with the grant hook", Rows: []string{"SI-12.8c", "SI-8.6b", "SI-8.8"}},
		{Member: "constraints", What: "a skill, its constraint members, satisfiable and unsatisfiable arguments", Rows: []string{"SI-8.10a", "SI-8.10b", "SI-8.11a", "SI-8.11b", "SI-9.50c", "SI-9.67a", "SI-9.67b", "SI-9.67c", "SI-9.67d", "SI-9.68a"}},
		{Member: "constraints.invalid", What: "arguments with a structurally invalid constraint value", Rows: []string{"SI-8.10b"}},
		{Member: "constraints.unsatisfiable", What: "arguments with a constraint the target cannot honour", Rows: []string{"SI-8.11a", "SI-8.11b", "SI-9.50c", "SI-9.68a"}},
		{Member: "constraints.unsatisfiable.window", What: "arguments with a window constraint the target cannot honour", Rows: []string{"SI-9.67a"}},
		{Member: "constraints.unsatisfiable.scope", What: "arguments with a scope constraint the target cannot honour", Rows: []string{"SI-9.67b"}},
		{Member: "constraints.unsatisfiable.unit", What: "arguments with a unit constraint the target cannot honour", Rows: []string{"SI-9.67c"}},
		{Member: "constraints.unsatisfiable.freshness", What: "arguments with a freshness constraint the target cannot honour", Rows: []string{"SI-9.67d"}},
		{Member: "unavailableSkill", What: "a skill deliberately unavailable (describe_skill answered interface_unavailable for none)", Rows: []string{"SI-9.27"}},
		{Member: "corruptSkill", What: "an advertised skill whose stored document is corrupt (describe_skill answered interface_invalid for none)", Rows: []string{"SI-9.28"}},
		{Member: "unavailableSkill|corruptSkill", What: "a skill deliberately unavailable, or one whose stored document is corrupt (describe_skill answered interface_unavailable or interface_invalid for none)", Rows: []string{"SI-9.51a"}},
		{Member: "corruptSkill", What: "an advertised skill whose stored document is corrupt, and plausible arguments", Rows: []string{"SI-9.29b"}},
		{Member: "inputSideEffect", What: inputSideEffectWhat, Rows: []string{"SI-9.37b"}},
		{Member: "staleBinding", What: "a binding the agent advertised before and no longer does", Rows: []string{"SI-9.54a", "SI-9.54b"}},
		{Member: "faultInput", What: "arguments that drive the skill's domain logic to produce invalid output", Rows: []string{"SI-9.51b", "SI-9.58b"}},
		{Member: "sensitive.policyStrings", What: "strings of local policy state no error may show", Rows: []string{"SI-9.57b"}},
		{Member: "sensitive.prohibited", What: "arguments with a prohibited value and one unrelated schema error, and the value", Rows: []string{"SI-9.57c"}},
		{Member: "failedInitSkill", What: "a skill whose interface failed to load, assemble or validate, and plausible arguments (declare it absent when every skill's interface loaded)", Rows: []string{"SI-10.1"}},
		{Member: "limits.payloadBytes", What: "the target's payload size limit, a skill and its arguments", Rows: []string{"SI-12.2h"}},
		{Member: "limits.nestingDepth", What: "the target's nesting limit, a skill and its arguments", Rows: []string{"SI-12.2i"}},
		{Member: "limits", What: "the target's payload size or nesting limit, a skill and its arguments", Rows: []string{"SI-12.3a", "SI-9.51c"}},
		{Member: "revocation", What: "a permitted request, a revoke hook, a request the revocation forbids", Rows: []string{"SI-12.6", "SI-12.7c"}},
	}
}
