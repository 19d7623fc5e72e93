package schemaiface

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/refclients/skiface"
)

func (an *answer) state() string {
	if an.task == nil {
		return ""
	}
	return an.task.Status.State
}

// describe says what came back, for failure messages.
func (an *answer) describe() string {
	switch {
	case an == nil:
		return "no answer"
	case an.err != nil && an.bindErr == nil && an.task == nil:
		return "no usable answer: " + an.err.Error()
	case an.bindErr != nil:
		return "binding error " + clip(string(an.bindErr), 300)
	case an.msg != nil:
		return "a Message result " + clip(string(mustJSON(an.msg)), 300)
	case an.task != nil:
		s := "Task in " + an.task.Status.State
		if c := an.code(); c != "" {
			s += " with condition " + c
		}
		return s
	}
	return "an empty answer"
}

// code reads the condition an answer carries, tolerantly: the error Data Part of a task's final status Message
// (or of a Message result), or an ErrorInfo reason / {"error":{"code"}} entry inside a binding error. The strict
// shape is graded by its own rows.
func (an *answer) code() string {
	if an == nil {
		return ""
	}
	var parts []a2a.Part
	switch {
	case an.task != nil && an.task.Status.Message != nil:
		parts = an.task.Status.Message.Parts
	case an.msg != nil:
		parts = an.msg.Parts
	}
	for _, p := range parts {
		if c := codeIn(decodeTree(p.Data)); c != "" {
			return c
		}
	}
	if an.bindErr != nil {
		return bindingCode(an.bindErr)
	}
	return ""
}

func codeIn(v any) string {
	m, _ := v.(map[string]any)
	if e, ok := m["error"].(map[string]any); ok {
		if c, ok := e["code"].(string); ok {
			return c
		}
	}
	if c, ok := m["code"].(string); ok {
		return c
	}
	return ""
}

// bindingCode finds a condition inside a binding error: error.data[] (JSON-RPC) or error.details[] (HTTP+JSON)
// holding an ErrorInfo whose reason is a condition name, or an {"error":{"code"}} object.
func bindingCode(raw json.RawMessage) string {
	m, _ := decodeTree(raw).(map[string]any)
	var list []any
	switch x := m["data"].(type) {
	case []any:
		list = x
	case map[string]any:
		list = []any{x}
	}
	if d, ok := m["details"].([]any); ok {
		list = append(list, d...)
	}
	for _, it := range list {
		o, _ := it.(map[string]any)
		if r, ok := o["reason"].(string); ok && isCodeFold(r) {
			// An ErrorInfo reason is conventionally UPPER_SNAKE_CASE; the draft fixes the code's spelling only in
			// the Task's error Data Part, so a binding error's reason is read case-insensitively.
			return strings.ToLower(r)
		}
		if c := codeIn(o); c != "" {
			return c
		}
	}
	return ""
}

func isCodeFold(s string) bool {
	for _, c := range skiface.Codes {
		if strings.EqualFold(c, s) {
			return true
		}
	}
	return false
}

// artifactsNamed returns the task's artifacts with the name.
func artifactsNamed(t *a2a.Task, name string) []a2a.Artifact {
	var out []a2a.Artifact
	if t == nil {
		return nil
	}
	for _, a := range t.Artifacts {
		if a.Name == name {
			out = append(out, a)
		}
	}
	return out
}

// resultOf returns the skill result object's result member from the primary result Artifact (tolerantly: the
// first Data Part of the first Artifact named after the skill).
func resultOf(t *a2a.Task, skill string) (any, bool) {
	for _, a := range artifactsNamed(t, skill) {
		for _, p := range a.Parts {
			if m, ok := decodeTree(p.Data).(map[string]any); ok {
				r, ok := m["result"]
				return r, ok
			}
		}
	}
	return nil, false
}

func decodeTree(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return nil
	}
	return v
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return []byte(fmt.Sprintf("%q", err.Error()))
	}
	return b
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}
