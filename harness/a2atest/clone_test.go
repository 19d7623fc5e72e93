package a2atest

import (
	"encoding/json"
	"testing"

	"github.com/extconf/extconf/harness/a2a"
)

// cloneTask's copy encodes to the JSON the task encodes to, and shares no memory with it.
func TestCloneTaskEncodesAlike(t *testing.T) {
	text, url := "hello", "https://example.invalid/x"
	msg := a2a.Message{MessageID: "m1", Role: "ROLE_AGENT", Parts: []a2a.Part{{Text: &text}, {Data: json.RawMessage(`{"a": 1}`)},
		{Raw: []byte{1, 2}, MediaType: "application/octet-stream"}, {URL: &url, Metadata: json.RawMessage(`{"k":"v"}`)}},
		Extensions: []string{"urn:x"}, ReferenceTaskIDs: []string{"t0"}, Metadata: json.RawMessage(`{}`)}
	task := &a2a.Task{ID: "t1", ContextID: "c1", Status: a2a.TaskStatus{State: "TASK_STATE_COMPLETED", Message: &msg, Timestamp: "now"},
		Artifacts: []a2a.Artifact{{ArtifactID: "a1", Parts: []a2a.Part{{Text: &text}}, Extensions: []string{"urn:y"}}, {ArtifactID: "a2", Parts: []a2a.Part{}}},
		History:   []a2a.Message{msg, {MessageID: "m2", Role: "ROLE_USER"}}, Metadata: json.RawMessage(`{"m":[1,2]}`)}
	for _, tk := range []*a2a.Task{task, {ID: "empty"}} {
		c := cloneTask(tk)
		a, _ := json.Marshal(tk)
		b, _ := json.Marshal(&c)
		if string(a) != string(b) {
			t.Errorf("clone encodes differently:\n%s\n%s", a, b)
		}
	}
	c := cloneTask(task)
	*c.Status.Message.Parts[0].Text = "changed"
	c.History[0].Parts[1].Data[2] = 'X'
	c.Artifacts[0].Extensions[0] = "changed"
	c.Metadata[2] = 'X'
	c.History[0].Parts[2].Raw[0] = 9
	if text != "hello" || string(msg.Parts[1].Data) != `{"a": 1}` || task.Artifacts[0].Extensions[0] != "urn:y" ||
		string(task.Metadata) != `{"m":[1,2]}` || task.History[0].Parts[2].Raw[0] != 1 {
		t.Error("the clone shares memory with the task")
	}
}
