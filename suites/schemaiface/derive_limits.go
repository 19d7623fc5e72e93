package schemaiface

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/jsonptr"
	"github.com/extconf/extconf/refclients/skiface"
)

// limitRefusal reports a refusal that names the limit: resource_limit_exceeded, or a plain HTTP 413 before any
// task exposing no other condition.
func limitRefusal(an *answer) bool {
	if an.state() == a2a.StateCompleted || an.msg != nil {
		return false
	}
	return an.code() == skiface.ResourceLimitExceeded ||
		(an.task == nil && an.ex != nil && an.ex.Status == http.StatusRequestEntityTooLarge && an.code() == "")
}

// limits finds the payload and nesting limits on the first side-effect-free skill with arguments.
func (ag *Agent) limits(args map[string]json.RawMessage) *limitsProfile {
	for _, e := range ag.entries {
		doc := ag.Docs[e.SkillID]
		a, ok := args[e.SkillID]
		if !ok || doc == nil || !sideEffectFree(doc) {
			continue
		}
		// A free string member of the arguments is lengthened; without one (every string bounded by the schema)
		// the message metadata carries the padding ("MUST enforce limits on … payload size" says not where).
		pad := padMember(inputSchema(doc), a)
		l := &limitsProfile{Skill: e.SkillID, Arguments: a, Pad: pad}
		if lo, ok := ag.boundary(16<<10, 4<<20, 8192, func(n int) *answer {
			return ag.send(ag.A, e.SkillID, padded(e, a, pad, n), fmt.Sprintf("derive limits.payloadBytes: a request of about %d bytes", n))
		}); ok {
			l.PayloadBytes = lo + 4096
		}
		if lo, ok := ag.boundary(16, 1024, 16, func(n int) *answer {
			return ag.send(ag.A, e.SkillID, nested(e, a, n), fmt.Sprintf("derive limits.nestingDepth: metadata nested %d deep", n))
		}); ok {
			l.NestingDepth = lo + 8
		}
		if l.PayloadBytes == 0 && l.NestingDepth == 0 {
			return nil
		}
		return l
	}
	return nil
}

type limitsProfile = struct {
	Skill        string          `json:"skill"`
	Arguments    json.RawMessage `json:"arguments"`
	Pad          string          `json:"pad,omitempty"`
	PayloadBytes int             `json:"payloadBytes,omitempty"`
	NestingDepth int             `json:"nestingDepth,omitempty"`
}

// boundary finds the largest size that completes with the next one at most gap above refused for the limit:
// doubling from start up to limit, then halving the interval. ok is false unless start completes, some size up to
// limit is refused with the limit, and every answer on the way is one of the two.
func (ag *Agent) boundary(start, limit, gap int, try func(n int) *answer) (lo int, ok bool) {
	hi := 0
	for n := start; n <= limit; n *= 2 {
		an := try(n)
		switch {
		case an.state() == a2a.StateCompleted:
			lo = n
			continue
		case limitRefusal(an) && lo > 0:
			hi = n
		}
		break
	}
	if lo == 0 || hi == 0 {
		return 0, false
	}
	for hi-lo > gap {
		mid := lo + (hi-lo)/2
		an := try(mid)
		switch {
		case an.state() == a2a.StateCompleted:
			lo = mid
		case limitRefusal(an):
			hi = mid
		default:
			return 0, false
		}
	}
	return lo, true
}

// padMember is a root string member of the arguments its schema leaves free (no enum, const, pattern, format or
// maxLength), the member a payload probe lengthens.
func padMember(sch map[string]any, args json.RawMessage) string {
	props, _ := sch["properties"].(map[string]any)
	m := cloneArgs(args)
	for _, k := range sortedKeys(props) {
		ps, _ := props[k].(map[string]any)
		if _, ok := m[k].(string); !ok || ps["type"] != "string" {
			continue
		}
		free := true
		for _, kw := range []string{"enum", "const", "pattern", "format", "maxLength"} {
			if _, has := ps[kw]; has {
				free = false
			}
		}
		if free {
			return "/" + jsonptr.Escape(k)
		}
	}
	return ""
}
