package onrequest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/extconf/extconf/harness/a2a"
)

// Object is the reply object (§6.1) as found.
type Object struct {
	Raw         json.RawMessage
	Status      string
	SkillID     string
	PersonEntry string
	HasStatus   bool
	HasSkillID  bool
	HasPE       bool
	Problem     string // the value under the URI is not an object
}

// ReadObject reads metadata[URI] from a metadata object; nil when the key is absent.
func ReadObject(metadata json.RawMessage) *Object {
	if len(metadata) == 0 {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(metadata, &m) != nil {
		return nil
	}
	raw, ok := m[URI]
	if !ok {
		return nil
	}
	o := &Object{Raw: raw}
	var mm map[string]json.RawMessage
	if json.Unmarshal(raw, &mm) != nil || mm == nil {
		o.Problem = "metadata[" + URI + "] is not a JSON object: " + clipStr(string(raw), 120)
		return o
	}
	_, o.HasStatus = mm["status"]
	_, o.HasSkillID = mm["skillId"]
	_, o.HasPE = mm["personEntry"]
	_ = json.Unmarshal(mm["status"], &o.Status)
	_ = json.Unmarshal(mm["skillId"], &o.SkillID)
	_ = json.Unmarshal(mm["personEntry"], &o.PersonEntry)
	return o
}

// Reply is an agent's answer to one SendMessage, whatever the binding: a Message, or a Task (for a stream, the
// task as the events leave it, with every state the stream passed through).
type Reply struct {
	Message *a2a.Message
	Task    *a2a.Task
	States  []string
	// TaskMetadataEvents collects metadata of stream events (statusUpdate/artifactUpdate), where an agent might
	// wrongly put the object.
	EventMetadata []json.RawMessage
}

// ReplyFromResult normalises a SendMessage result.
func ReplyFromResult(res *a2a.SendResult) Reply {
	var r Reply
	if res == nil {
		return r
	}
	r.Message, r.Task = res.Message, res.Task
	if r.Task != nil {
		r.States = []string{r.Task.Status.State}
	}
	return r
}

// ReplyFromStream assembles a stream's events: the Task (or Message), status updates replacing the status,
// artifact updates adding or extending artifacts.
func ReplyFromStream(events []a2a.StreamEvent) Reply {
	var r Reply
	for _, ev := range events {
		switch {
		case ev.Message != nil:
			r.Message = ev.Message
		case ev.Task != nil:
			t := *ev.Task
			t.Artifacts = append([]a2a.Artifact(nil), ev.Task.Artifacts...)
			r.Task = &t
			r.States = append(r.States, t.Status.State)
		case ev.StatusUpdate != nil:
			if r.Task == nil {
				r.Task = &a2a.Task{ID: ev.StatusUpdate.TaskID, ContextID: ev.StatusUpdate.ContextID}
			}
			r.Task.Status = ev.StatusUpdate.Status
			r.States = append(r.States, ev.StatusUpdate.Status.State)
			if len(ev.StatusUpdate.Metadata) > 0 {
				r.EventMetadata = append(r.EventMetadata, ev.StatusUpdate.Metadata)
			}
		case ev.ArtifactUpdate != nil:
			if r.Task == nil {
				r.Task = &a2a.Task{ID: ev.ArtifactUpdate.TaskID, ContextID: ev.ArtifactUpdate.ContextID}
			}
			a := ev.ArtifactUpdate.Artifact
			merged := false
			for i := range r.Task.Artifacts {
				if r.Task.Artifacts[i].ArtifactID == a.ArtifactID && ev.ArtifactUpdate.Append {
					r.Task.Artifacts[i].Parts = append(r.Task.Artifacts[i].Parts, a.Parts...)
					merged = true
				} else if r.Task.Artifacts[i].ArtifactID == a.ArtifactID {
					r.Task.Artifacts[i] = a
					merged = true
				}
			}
			if !merged {
				r.Task.Artifacts = append(r.Task.Artifacts, a)
			}
			if len(ev.ArtifactUpdate.Metadata) > 0 {
				r.EventMetadata = append(r.EventMetadata, ev.ArtifactUpdate.Metadata)
			}
		}
	}
	return r
}

// Reply returns the message that answers: the Message result, or the task's final status message.
func (r Reply) Reply() *a2a.Message {
	if r.Message != nil {
		return r.Message
	}
	if r.Task != nil {
		return r.Task.Status.Message
	}
	return nil
}

// State is the task's final state ("" for a Message reply).
func (r Reply) State() string {
	if r.Task == nil {
		return ""
	}
	return r.Task.Status.State
}

// Artifacts returns the task's artifacts.
func (r Reply) Artifacts() []a2a.Artifact {
	if r.Task == nil {
		return nil
	}
	return r.Task.Artifacts
}

// Text is the reply text: the text parts of the answering message.
func (r Reply) Text() string { return partsText(r.Reply()) }

// ArtifactText is the text parts of every artifact.
func (r Reply) ArtifactText() string {
	var out []string
	for _, a := range r.Artifacts() {
		if t := textOf(a.Parts); t != "" {
			out = append(out, t)
		}
	}
	return strings.Join(out, "\n")
}

// AllText is every text the reply carries for a reader: the answering message and the artifacts.
func (r Reply) AllText() string {
	return strings.TrimSpace(r.Text() + "\n" + r.ArtifactText())
}

// Object returns the object where §6.2 puts it for a referral: Message.metadata, or the final status message's.
func (r Reply) Object() *Object {
	if m := r.Reply(); m != nil {
		return ReadObject(m.Metadata)
	}
	return nil
}

// ArtifactObjects returns the objects found on artifacts, by artifact index.
func (r Reply) ArtifactObjects() map[int]*Object {
	out := map[int]*Object{}
	for i, a := range r.Artifacts() {
		if o := ReadObject(a.Metadata); o != nil {
			out[i] = o
		}
	}
	return out
}

// ObjectsElsewhere lists places other than the answering message and the artifacts holding the object (Task
// metadata, stream-event metadata, data parts): where a client keyed on §6.2 does not look.
func (r Reply) ObjectsElsewhere() []string {
	var out []string
	if r.Task != nil && ReadObject(r.Task.Metadata) != nil {
		out = append(out, "Task.metadata")
	}
	for _, md := range r.EventMetadata {
		if ReadObject(md) != nil {
			out = append(out, "stream event metadata")
			break
		}
	}
	check := func(where string, parts []a2a.Part) {
		for i, p := range parts {
			if len(p.Data) > 0 && bytes.Contains(p.Data, []byte(URI)) {
				out = append(out, fmt.Sprintf("%s.parts[%d].data", where, i))
			}
		}
	}
	if m := r.Reply(); m != nil {
		check("reply message", m.Parts)
	}
	for i, a := range r.Artifacts() {
		check(fmt.Sprintf("artifacts[%d]", i), a.Parts)
	}
	return out
}

// Describe summarises a reply for failure messages.
func (r Reply) Describe() string {
	var b strings.Builder
	switch {
	case r.Message != nil:
		b.WriteString("Message")
	case r.Task != nil:
		fmt.Fprintf(&b, "Task in %s", r.Task.Status.State)
		if len(r.States) > 1 {
			fmt.Fprintf(&b, " (states %s)", strings.Join(r.States, " → "))
		}
		if n := len(r.Task.Artifacts); n > 0 {
			fmt.Fprintf(&b, " with %d artifact(s)", n)
		}
	default:
		b.WriteString("no Message or Task")
	}
	if o := r.Object(); o != nil {
		fmt.Fprintf(&b, "; object %s", clipStr(string(o.Raw), 200))
	}
	fmt.Fprintf(&b, "; text %q", clipStr(r.AllText(), 300))
	return b.String()
}

func partsText(m *a2a.Message) string {
	if m == nil {
		return ""
	}
	return textOf(m.Parts)
}

func textOf(parts []a2a.Part) string {
	var out []string
	for _, p := range parts {
		if p.Text != nil {
			out = append(out, *p.Text)
		}
	}
	return strings.Join(out, "\n")
}
