package schemaiface

import (
	"encoding/json"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/sabotage"
)

var bearer = []a2a.SecurityRequirement{{Schemes: map[string]a2a.StringList{"bearer": {}}}}

// card is the Agent Card: describe_skill and every domain skill in skills[], the schema-interface extension with
// one binding per successfully assembled skill. No explicit default-valued members (card signatures stay stable).
func (a *agent) card(base string) any {
	on := a.set.On
	c := &a2a.AgentCard{
		Name: "extconf schema-interface reference agent",
		Description: "Reference agent of the extconf harness for Schema Interfaces for Network Management Agent Skills " +
			"(interface version 1.0): describe_skill returns each domain skill's Skill Interface Document.",
		SupportedInterfaces: a2atest.Interfaces(base),
		Version:             "1.0.0",
		Capabilities:        a2a.AgentCapabilities{Streaming: !a.opt.SyncOnly},
		SecuritySchemes: map[string]json.RawMessage{
			"bearer": json.RawMessage(`{"httpAuthSecurityScheme":{"scheme":"Bearer","description":"test-only bearer tokens of principals A and B"}}`),
		},
		SecurityRequirements: bearer,
		DefaultInputModes:    []string{"application/json"},
		DefaultOutputModes:   []string{"application/json"},
	}
	if !on(sabotage.SICardOmitDescribeSkill) {
		c.Skills = append(c.Skills, a2a.AgentSkill{ID: "describe_skill", Name: "Describe skill",
			Description: "Returns the Skill Interface Document and its interface_digest for an advertised skill_id.",
			Tags:        []string{"schema-interface"}, InputModes: []string{"application/json"},
			OutputModes: []string{"application/json"}, SecurityRequirements: bearer,
			Examples: []string{`{"skill":"describe_skill","arguments":{"skill_id":"evaluate_resource_condition"}}`}})
	}
	var entries []map[string]any
	for _, id := range a.order {
		sk := a.skills[id]
		if !(id == skillEvaluate && on(sabotage.SICardOmitDomainSkill)) {
			c.Skills = append(c.Skills, a2a.AgentSkill{ID: id, Name: sk.card.Name, Description: sk.card.Description,
				Tags: sk.card.Tags, Examples: sk.card.Examples, InputModes: []string{"application/json"},
				OutputModes: []string{"application/json"}, SecurityRequirements: bearer})
		}
		if !sk.advertised {
			continue
		}
		version, digest := sk.version, sk.cardDigest
		switch {
		case id == skillEvaluate && on(sabotage.SICardAdvertisesRemovedVersion):
			digest = sk.digest // the removed 1.0 binding
		case id == skillEvaluate && on(sabotage.SICardStaleInterfaceDigest):
			digest = interfaceDigest(editJSON(sk.doc, func(m map[string]any) { obj(m, "interaction")["cancellable"] = false }))
		}
		e := map[string]any{"skill_id": id, "skill_version": version, "interface_digest": digest}
		switch {
		case id == skillEvaluate && on(sabotage.SICardEntryOmitInterfaceDigest):
			delete(e, "interface_digest")
		case id == skillEvaluate && on(sabotage.SICardEntryOmitSkillVersion):
			delete(e, "skill_version")
		case id == skillManage && on(sabotage.SICardEntryOmitSkillID):
			delete(e, "skill_id")
		}
		entries = append(entries, e)
		if id == skillEvaluate && on(sabotage.SICardDuplicateSkillIDVersions) {
			entries = append(entries, map[string]any{"skill_id": id, "skill_version": "2.0",
				"interface_digest": interfaceDigest(withVersion(sk.doc, "2.0"))})
		}
	}
	if on(sabotage.SICardEntryUnknownSkillID) {
		ev := a.skills[skillEvaluate]
		entries = append(entries, map[string]any{"skill_id": "ghost_skill", "skill_version": "1.0", "interface_digest": ev.cardDigest})
	}
	params := map[string]any{"interface_version": "1.0", "skills": entries}
	if on(sabotage.SICardInterfaceVersion11) {
		params["interface_version"] = "1.1"
	}
	if on(sabotage.SICardSkillsNotArray) {
		byID := map[string]any{}
		for _, e := range entries {
			id, _ := e["skill_id"].(string)
			byID[id] = e
		}
		params["skills"] = byID
	}
	if !on(sabotage.SICardOmitExtension) {
		c.Capabilities.Extensions = []a2a.AgentExtension{{URI: URI, Description: "Schema interfaces for advertised skills",
			Params: mustJSON(params)}}
	}
	return c
}
