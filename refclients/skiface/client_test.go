package skiface

import (
	"encoding/json"
	"testing"

	"github.com/extconf/extconf/harness/a2a"
)

func TestAssemble(t *testing.T) {
	part := func(s string) a2a.Part { return a2a.Part{Data: json.RawMessage(s)} }
	events := []a2a.StreamEvent{
		{Task: &a2a.Task{ID: "t", Status: a2a.TaskStatus{State: a2a.StateSubmitted}}},
		{ArtifactUpdate: &a2a.TaskArtifactUpdateEvent{Artifact: a2a.Artifact{ArtifactID: "rec", Name: "k", Parts: []a2a.Part{part(`{"r":1}`)}}}},
		{ArtifactUpdate: &a2a.TaskArtifactUpdateEvent{Artifact: a2a.Artifact{ArtifactID: "res", Name: "s", Parts: []a2a.Part{part(`{"partial":true}`)}}}},
		{ArtifactUpdate: &a2a.TaskArtifactUpdateEvent{Artifact: a2a.Artifact{ArtifactID: "res", Name: "s", Parts: []a2a.Part{part(`{"complete":true}`)}}, LastChunk: true}},
		{ArtifactUpdate: &a2a.TaskArtifactUpdateEvent{Artifact: a2a.Artifact{ArtifactID: "rec", Parts: []a2a.Part{part(`{"r":2}`)}}, Append: true}},
		{StatusUpdate: &a2a.TaskStatusUpdateEvent{Status: a2a.TaskStatus{State: a2a.StateCompleted}}},
	}
	task, msg := Assemble(events)
	if msg != nil || task == nil || task.Status.State != a2a.StateCompleted || len(task.Artifacts) != 2 {
		t.Fatalf("assembled %+v %+v", task, msg)
	}
	if string(task.Artifacts[1].Parts[0].Data) != `{"complete":true}` || len(task.Artifacts[1].Parts) != 1 {
		t.Errorf("a non-append update must replace the artifact: %s", task.Artifacts[1].Parts[0].Data)
	}
	if len(task.Artifacts[0].Parts) != 2 {
		t.Errorf("an append update must add parts: %d", len(task.Artifacts[0].Parts))
	}
}

func TestCacheEvictsAndBinds(t *testing.T) {
	c := newCache()
	lim := Limits{MaxCacheEntries: 2}.withDefaults()
	k := func(target, digest string) cacheKey {
		return cacheKey{Target: target, SkillID: "s", SkillVersion: "1.0", InterfaceVersion: "1.0", Digest: digest}
	}
	for _, d := range []string{"a", "b", "c"} {
		if err := c.put(k("t1", d), &Verified{Size: 10}, lim, false); err != nil {
			t.Fatal(err)
		}
	}
	if c.len() != 2 || c.get(k("t1", "a")) != nil || c.get(k("t1", "c")) == nil {
		t.Errorf("eviction: len %d", c.len())
	}
	if c.get(k("t2", "c")) != nil {
		t.Error("an entry served another target")
	}
	if err := c.put(k("t1", "big"), &Verified{Size: 1 << 40}, lim, false); CodeOf(err) != ResourceLimitExceeded {
		t.Errorf("oversized document: %v", err)
	}
}

func TestConditions(t *testing.T) {
	e := &a2a.RPCError{Code: -32602, Data: json.RawMessage(`[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"input_invalid","domain":"x"}]`)}
	if got := bindingCondition(e); got != InputInvalid {
		t.Errorf("ErrorInfo reason: %q", got)
	}
	e.Data = json.RawMessage(`[{"error":{"code":"resource_limit_exceeded"}}]`)
	if got := bindingCondition(e); got != ResourceLimitExceeded {
		t.Errorf("error object: %q", got)
	}
	e.Data = json.RawMessage(`[{"reason":"INVALID_PARAMS"}]`)
	if got := bindingCondition(e); got != "" {
		t.Errorf("a non-condition reason: %q", got)
	}
	task := &a2a.Task{Status: a2a.TaskStatus{State: a2a.StateRejected, Message: &a2a.Message{Parts: []a2a.Part{{Data: json.RawMessage(`{"error":{"code":"interface_mismatch","message":"stale"}}`)}}}}}
	if code, msg := errorCondition(task); code != InterfaceMismatch || msg != "stale" {
		t.Errorf("task condition %q %q", code, msg)
	}
}

func TestDescribeResultMapping(t *testing.T) {
	doc := mustRead("testdata/evaluate_resource_condition.json")
	ok := func() *a2a.Task {
		data, _ := json.Marshal(map[string]any{"skill": DescribeSkill, "result": map[string]any{"interface_digest": "sha256:x", "interface": json.RawMessage(doc)}})
		return &a2a.Task{Status: a2a.TaskStatus{State: a2a.StateCompleted}, Artifacts: []a2a.Artifact{{ArtifactID: "a", Name: DescribeSkill, Parts: []a2a.Part{{Data: data}}}}}
	}
	if _, d, err := describeResult(ok(), "evaluate_resource_condition"); err != nil || d != "sha256:x" {
		t.Fatalf("well-formed answer: %v", err)
	}
	bad := map[string]func(*a2a.Task){
		"two artifacts": func(t *a2a.Task) { t.Artifacts = append(t.Artifacts, t.Artifacts[0]) },
		"renamed":       func(t *a2a.Task) { t.Artifacts[0].Name = "interface" },
		"two parts":     func(t *a2a.Task) { t.Artifacts[0].Parts = append(t.Artifacts[0].Parts, a2a.TextPart("x")) },
		"string doc": func(t *a2a.Task) {
			t.Artifacts[0].Parts[0].Data = json.RawMessage(`{"skill":"describe_skill","result":{"interface_digest":"sha256:x","interface":"{}"}}`)
		},
		"no digest": func(t *a2a.Task) {
			t.Artifacts[0].Parts[0].Data = json.RawMessage(`{"skill":"describe_skill","result":{"interface":{}}}`)
		},
	}
	for name, edit := range bad {
		task := ok()
		edit(task)
		if _, _, err := describeResult(task, "evaluate_resource_condition"); err == nil || err.Code != InterfaceInvalid {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestCompareRefs(t *testing.T) {
	c := &Client{}
	a := SchemaReference{SchemaURI: "u", Version: "1.0", Dialect: Dialect2020, Digest: "d"}
	if c.compareRefs(a, a) != "" {
		t.Error("identical references differ")
	}
	for _, b := range []SchemaReference{
		{SchemaURI: "v", Version: "1.0", Dialect: Dialect2020, Digest: "d"},
		{SchemaURI: "u", Version: "1.1", Dialect: Dialect2020, Digest: "d"},
		{SchemaURI: "u", Version: "1.0", Dialect: Dialect2020 + "#", Digest: "d"},
		{SchemaURI: "u", Version: "1.0", Dialect: Dialect2020, Digest: "e"},
	} {
		if c.compareRefs(a, b) == "" {
			t.Errorf("%+v compared equal", b)
		}
	}
}
