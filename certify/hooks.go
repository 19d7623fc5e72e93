package certify

import (
	"encoding/json"
	"fmt"
	"strings"

	cc "github.com/extconf/extconf/harness/clientcert"
	"github.com/extconf/extconf/refclients/skiface"
	sic "github.com/extconf/extconf/suites/schemaifaceclient"
)

// The rows whose mechanism lives inside the client (schema-interface §12: a compilation time limit, a limit on
// cache consumption, the integrity check of the packaged Skill Interface Schema) are reached through optional
// hooks of the contract: a client that offers one is graded on the row, one that does not reads not-tested with a
// reason naming what to declare — never a pass, never a failure.

const (
	// limMaxCacheEntries bounds the declared cache_entries the harness serves (N+2 skills, each invoked twice).
	limMaxCacheEntries = 64
	// compileGenerous is the control's compilation budget: far beyond any compilation of the worked example.
	compileGenerous = "10000000000" // 10 s
	// compileTiny is the over scenario's budget: 1 ns, which no compilation meets.
	compileTiny = "1"
	// schemaCopyFile names the copy handed through EXTCONF_SCHEMA_COPY.
	schemaCopyFile = "skill-interface-schema.json"
)

// hookDeclare is the not-run reason of a client that does not offer a hook.
func hookDeclare(hook, sentence, how string) string {
	return fmt.Sprintf("the client offers no %s hook: schema-interface §12 requires it (%q), but the mechanism lives inside the client, where no answer of the counterpart reaches it — offer the hook to be graded: declare \"hooks\":[\"%s\"] in the version reply and %s",
		hook, sentence, hook, how)
}

const (
	sentLimits    = "An implementation MUST enforce limits on schema size, nesting, reference depth, reference cycles, compilation time, payload size, and cache consumption"
	sentIntegrity = "The remote agent and client agent MUST integrity-check the packaged Skill Interface Schema before using it"
)

// SIHooks are the scenarios reached through the contract's hooks: the compilation budget (SI-12.2e), the document
// cache (SI-12.2g, through EXTCONF_SKILLS and the declared limits.cache_entries) and the Skill Interface Schema
// copy (SI-12.9a).
func SIHooks() []cc.Scenario {
	args := siExampleArguments()
	base := cc.Scenario{Document: siDoc, Action: cc.ActionInvoke, Role: SIStandinRole + "example", Skill: sic.ExampleSkill, Arguments: args}
	offers := func(hook, how string, sentence string) func(cc.Identity, *cc.Scenario) string {
		return func(id cc.Identity, _ *cc.Scenario) string {
			if id.Offers(hook) {
				return ""
			}
			return hookDeclare(hook, sentence, how)
		}
	}

	// SI-12.2e: the same worked example under a generous budget (the control) and under 1 ns. The value is the
	// harness's; what is graded is that the client's enforcement exists and acts on a real compilation before it
	// delegates.
	compileHow := "take the compilation time budget for the invocation from " + cc.EnvCompileBudget + " (nanoseconds)"
	ctWithin := base
	ctWithin.ID, ctWithin.Env = "si.limit.compile-time.within", map[string]string{cc.EnvCompileBudget: compileGenerous}
	ctWithin.Description = "the worked example with a 10 s compilation budget (" + cc.EnvCompileBudget + "): the positive control"
	ctWithin.Adapt = offers(cc.HookCompileBudget, compileHow, sentLimits)
	ctOver := base
	ctOver.ID, ctOver.Env, ctOver.Control = "si.limit.compile-time.over", map[string]string{cc.EnvCompileBudget: compileTiny}, ctWithin.ID
	ctOver.Description = "the same worked example with a 1 ns compilation budget: no compilation meets it"
	ctOver.Adapt = ctWithin.Adapt
	ctOver.Checks = []cc.Check{siRefusedNoDomain("SI-12.2e"), siLimitNotInput("SI-12.2e"), siLimitCodeAnyStep()}

	// SI-12.2g: N = limits.cache_entries. The control invokes one skill twice (one describe_skill: the client
	// reuses a cached document at all); the over scenario invokes N+2 distinct skills, then each again.
	cacheFit := func(control bool) func(cc.Identity, *cc.Scenario) string {
		return func(id cc.Identity, sc *cc.Scenario) string {
			var l cc.Limits
			if id.Limits != nil {
				l = *id.Limits
			}
			n := l.CacheEntries
			switch {
			case n == 0 && l.CacheBytes > 0:
				return fmt.Sprintf("the client declares a cache byte budget only (limits.cache_bytes %d): how many documents it holds depends on how the client counts a document's bytes, so the harness grades the document count — declare limits.cache_entries (the most validated Skill Interface Documents kept at once) and implement %s", l.CacheBytes, cc.EnvSkills)
			case n == 0:
				return limitDeclare("cache_entries (the most validated Skill Interface Documents kept at once; and implement "+cc.EnvSkills+")", "cache consumption")
			case n > limMaxCacheEntries:
				return fmt.Sprintf("the declared cache limit (%d entries) is beyond what the harness serves (at most %d)", n, limMaxCacheEntries)
			}
			skills := []string{sic.CacheSkill(1), sic.CacheSkill(1)}
			if !control {
				skills = nil
				for pass := 0; pass < 2; pass++ {
					for i := 1; i <= n+2; i++ {
						skills = append(skills, sic.CacheSkill(i))
					}
				}
			}
			b, _ := json.Marshal(skills)
			sc.Role = fmt.Sprintf("%scache:%d", SIStandinRole, n+2)
			sc.Skill, sc.Env = sic.CacheSkill(1), map[string]string{cc.EnvSkills: string(b)}
			return ""
		}
	}
	cacheCtl := base
	cacheCtl.ID, cacheCtl.Role, cacheCtl.Adapt = "si.limit.cache.reuse", SIStandinRole+"cache:N+2", cacheFit(true)
	cacheCtl.Description = "one skill invoked twice in one process (" + cc.EnvSkills + "): the client reuses its cached document (one describe_skill) — the control"
	cacheOver := base
	cacheOver.ID, cacheOver.Role, cacheOver.Adapt, cacheOver.Control = "si.limit.cache.over", SIStandinRole+"cache:N+2", cacheFit(false), cacheCtl.ID
	cacheOver.Description = "N+2 distinct skills (N = limits.cache_entries), each a copy of the worked example, invoked in turn and then each again in one process"
	cacheOver.Checks = []cc.Check{siCacheBounded()}

	// SI-12.9a: the pristine copy (the control) and one with a required member removed, which fails the pin.
	copyHow := "load the Skill Interface Schema copy from the file " + cc.EnvSchemaCopy + " names, in place of the packaged one, integrity-checking it as that one"
	tampered := []byte(strings.Replace(string(skiface.TrustedSchema()), `"skill_version",`, ``, 1))
	scPristine := base
	scPristine.ID = "si.integrity.schema-copy.pristine"
	scPristine.Env, scPristine.Files = map[string]string{cc.EnvSchemaCopy: "{file:" + schemaCopyFile + "}"}, map[string][]byte{schemaCopyFile: skiface.TrustedSchema()}
	scPristine.Description = "the worked example, the client's Skill Interface Schema copy (" + cc.EnvSchemaCopy + ") the project's pristine one (" + skiface.TrustedSchemaDigest + "): the positive control"
	scPristine.Adapt = offers(cc.HookSchemaCopy, copyHow, sentIntegrity)
	scTampered := scPristine
	scTampered.ID, scTampered.Control = "si.integrity.schema-copy.tampered", scPristine.ID
	scTampered.Files = map[string][]byte{schemaCopyFile: tampered}
	scTampered.Description = "the same, the copy with \"skill_version\" removed from its required list: it fails the pinned digest"
	scTampered.Checks = []cc.Check{{Rows: []string{"SI-12.9a"}, Expect: "the client refuses to validate with the tampered copy: it refuses and sends no domain-skill request",
		Judge: func(o *cc.Observation) cc.Judgement {
			m := siOf(o, "domain")
			if len(m) > 0 {
				return cc.Fail(fmt.Sprintf("domain-skill request sent with the tampered copy loaded (%s)", o.Describe()), m[0].ex)
			}
			return cc.Judge(o.Outcome() == cc.OutcomeRefused, o.Describe(), lastEx(o))
		}}}
	return []cc.Scenario{ctWithin, ctOver, cacheCtl, cacheOver, scPristine, scTampered}
}

// siLimitCodeAnyStep (SI-12.3b) is siLimitCode for a limit the client may meet before describe_skill (a budget it
// may apply to compiling its own Skill Interface Schema copy): the refusal reports resource_limit_exceeded as a
// local condition with no remote task.
func siLimitCodeAnyStep() cc.Check {
	return cc.Check{Rows: []string{"SI-12.3b"}, Expect: "the refusal reports " + skiface.ResourceLimitExceeded + " as a local condition (local true, no remote task)",
		Judge: func(o *cc.Observation) cc.Judgement {
			r := o.Reply()
			if r == nil || r.Outcome != cc.OutcomeRefused {
				return cc.Block("the client does not refuse (the refusal check judges that): " + o.Describe())
			}
			ok := r.Reason == skiface.ResourceLimitExceeded && r.Local && r.Task == nil
			return cc.Judge(ok, fmt.Sprintf("%s; local %v", o.Describe(), r.Local), lastEx(o))
		}}
}

// siCacheBounded (SI-12.2g) grades the second pass over N+2 distinct documents, whatever the eviction policy: a
// document enters the cache only through its own describe_skill, so the skills not cached at the end of the first
// pass (at least 2 when at most N are kept) are each described again at their turn; fewer than 2 described again
// means at least N+1 documents were held at once. A client that refuses a document with resource_limit_exceeded
// instead of evicting enforces the limit too.
func siCacheBounded() cc.Check {
	return cc.Check{Rows: []string{"SI-12.2g"}, Expect: "with N = limits.cache_entries, at least 2 of the N+2 skills are described again in the second pass (or a document is refused with " + skiface.ResourceLimitExceeded + ")",
		Judge: func(o *cc.Observation) cc.Judgement {
			ctl := o.Control
			if ctl == nil {
				return cc.Block("the control scenario did not run")
			}
			cd, cm := siOf(ctl, "describe"), siOf(ctl, "domain")
			switch {
			case len(cm) < 2:
				return cc.Unanswered(fmt.Sprintf("the client invoked the skill %d time(s) in the control: it does not implement %s (invoke each skill of the list in turn, in one process)", len(cm), cc.EnvSkills))
			case len(cd) == 0:
				return cc.Block("positive control failed: the client calls describe_skill before delegating — " + ctl.Describe())
			case len(cd) >= 2:
				return cc.Unanswered(fmt.Sprintf("the client called describe_skill %d times for one skill invoked twice in one process: it reuses no cached document on the wire, so the contract sees no cache consumption to limit (a client keeping no document cache has none)", len(cd)))
			}
			var skills []string
			if err := json.Unmarshal([]byte(o.Scenario.Env[cc.EnvSkills]), &skills); err != nil || len(skills)%2 != 0 || len(skills) < 6 {
				return cc.Block("the scenario's skill list is malformed")
			}
			k := len(skills) / 2 // N+2
			rs := siRequests(o)
			domains := 0
			firstPass := map[string]bool{} // skills described in the first pass
			again := map[string]bool{}     // skills described in the second
			for _, r := range rs {
				switch r.kind {
				case "domain":
					domains++
				case "describe":
					var a struct {
						SkillID string `json:"skill_id"`
					}
					_ = json.Unmarshal(r.data["arguments"], &a)
					if domains < k {
						firstPass[a.SkillID] = true
					} else {
						again[a.SkillID] = true
					}
				}
			}
			r := o.Reply()
			if r != nil && r.Outcome == cc.OutcomeRefused && r.Reason == skiface.ResourceLimitExceeded && domains >= 1 && domains < len(skills) {
				return cc.Pass(fmt.Sprintf("after %d completed invocations the client refused %s with %s (N = %d)", domains, skills[domains], r.Reason, k-2), lastEx(o))
			}
			if domains != len(skills) || o.Outcome() != cc.OutcomeCompleted {
				return cc.Block(fmt.Sprintf("positive control failed: the client completes each of the %d invocations (the worked example, completed in the control) — %d domain-skill requests; %s", len(skills), domains, o.Describe()))
			}
			if len(firstPass) < k {
				return cc.Block(fmt.Sprintf("positive control failed: the client describes each of the %d skills before its first delegation — %d described in the first pass", k, len(firstPass)))
			}
			return cc.Judge(len(again) >= 2, fmt.Sprintf("%d of the %d skills described again in the second pass (declared cache_entries %d)", len(again), k, k-2), lastEx(o))
		}}
}
