package schemaifaceclient

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/refclients/skiface"
)

// A stand-in is a small schema-interface agent the specs start on 127.0.0.1 to show how the reference client
// treats an agent that behaves in one precise way (correctly, or breaking one rule). It is not the document's
// reference agent (that one is the target's "schema-interface" role); it only needs to be faithful where a spec
// looks.

// skill is one domain skill of a stand-in.
type skill struct {
	id, name    string
	doc         []byte // served as result.interface, byte for byte
	version     string // advertised skill_version ("" → the document's)
	cardDigest  string // advertised interface_digest ("" → JCS digest of doc)
	retDigest   string // result.interface_digest ("" → cardDigest)
	failWith    string // describe_skill fails with this condition (TASK_STATE_FAILED)
	inputModes  []string
	run         func(args json.RawMessage) (json.RawMessage, []record)
	notInSkills bool // advertised in the extension only
	raw         bool // serve doc exactly as given (default: its JCS form, so only a spec that wants odd bytes gets them)
	input       *skiface.Compiled
}

type record struct {
	kind, id string
	value    json.RawMessage
}

// received is one request a stand-in saw.
type received struct {
	Method     string // SendMessage, SendStreamingMessage, GetTask, CancelTask, or a custom JSON-RPC method
	Kind       string // describe | domain | other
	Skill      string
	Message    a2a.Message
	Extensions []string
}

type standin struct {
	srv              *a2atest.Server
	skills           []*skill
	noExtension      bool
	noDescribe       bool
	interfaceVersion string // params.interface_version ("" → "1.0")
	taskID           string // every task gets this id (two endpoints issuing the same id)
	plain            bool   // a base A2A agent: no extension, no describe_skill
	pad              int    // the describe_skill answer's task metadata carries this many padding bytes

	mu  sync.Mutex
	log []received
	seq atomic.Int64
}

func (s *standin) find(id string) *skill {
	for _, k := range s.skills {
		if k.id == id {
			return k
		}
	}
	return nil
}

func (k *skill) advertisedVersion() string {
	if k.version != "" {
		return k.version
	}
	var d struct {
		V string `json:"skill_version"`
	}
	_ = json.Unmarshal(k.doc, &d)
	return d.V
}

func (k *skill) advertisedDigest() string {
	if k.cardDigest != "" {
		return k.cardDigest
	}
	d, _ := skiface.InterfaceDigest(k.doc)
	return d
}

func (s *standin) card(base string) any {
	card := &a2a.AgentCard{
		Name: "extconf reference-client stand-in", Description: "a local agent the reference-client specs start",
		SupportedInterfaces: a2atest.Interfaces(base), Version: "1.0",
		Capabilities:      a2a.AgentCapabilities{Streaming: true},
		DefaultInputModes: []string{"application/json"}, DefaultOutputModes: []string{"application/json"},
	}
	if !s.plain && !s.noDescribe {
		card.Skills = append(card.Skills, a2a.AgentSkill{ID: skiface.DescribeSkill, Name: "Describe skill",
			Description: "returns a skill's Skill Interface Document", Tags: []string{"schema-interface"}})
	}
	var entries []map[string]string
	for _, k := range s.skills {
		if !k.notInSkills {
			card.Skills = append(card.Skills, a2a.AgentSkill{ID: k.id, Name: k.name, Description: "stand-in skill " + k.id,
				Tags: []string{"test"}, InputModes: k.inputModes})
		}
		entries = append(entries, map[string]string{"skill_id": k.id, "skill_version": k.advertisedVersion(), "interface_digest": k.advertisedDigest()})
	}
	if !s.plain && !s.noExtension {
		iv := s.interfaceVersion
		if iv == "" {
			iv = skiface.InterfaceVersion
		}
		params, _ := json.Marshal(map[string]any{"interface_version": iv, "skills": entries})
		card.Capabilities.Extensions = []a2a.AgentExtension{{URI: skiface.ExtensionURI, Description: "Schema interfaces for advertised skills", Params: params}}
	}
	return card
}

func refuse(state, code, msg string) a2atest.Reply {
	return a2atest.Reply{Task: &a2a.Task{Status: a2a.TaskStatus{State: state, Message: &a2a.Message{
		MessageID: "err-" + code, Role: a2a.RoleAgent,
		Parts: []a2a.Part{a2a.DataPart(map[string]any{"error": map[string]any{"code": code, "message": msg}})},
	}}}}
}

func (s *standin) before(c *a2atest.Ctx) *a2atest.Reply {
	switch c.Method {
	case a2a.MethodSendMessage, a2a.MethodSendStreamingMessage:
		return nil // logged with its content in onSend
	}
	s.mu.Lock()
	s.log = append(s.log, received{Method: c.Method, Kind: "other", Extensions: c.Requested})
	s.mu.Unlock()
	return nil
}

func (s *standin) onSend(c *a2atest.Ctx, req a2a.SendMessageRequest) a2atest.Reply {
	rec := received{Method: c.Method, Kind: "other", Message: req.Message, Extensions: c.Requested}
	var obj struct {
		Skill           string          `json:"skill"`
		SkillVersion    *string         `json:"skill_version"`
		InterfaceDigest *string         `json:"interface_digest"`
		Arguments       json.RawMessage `json:"arguments"`
	}
	var data json.RawMessage
	for _, p := range req.Message.Parts {
		if len(p.Data) > 0 {
			data = p.Data
			break
		}
	}
	if data != nil && json.Unmarshal(data, &obj) == nil && obj.Skill != "" {
		rec.Skill = obj.Skill
		rec.Kind = "domain"
		if obj.Skill == skiface.DescribeSkill {
			rec.Kind = "describe"
		}
	}
	s.mu.Lock()
	s.log = append(s.log, rec)
	s.mu.Unlock()

	if s.plain {
		return s.task(a2atest.Reply{Task: &a2a.Task{Artifacts: []a2a.Artifact{{ArtifactID: "reply", Name: "reply", Parts: []a2a.Part{a2a.TextPart("done")}}}}})
	}
	switch rec.Kind {
	case "other":
		return s.task(refuse(a2a.StateRejected, skiface.InputInvalid, "the message carries no request object in a Data Part"))
	case "describe":
		var args struct {
			SkillID string `json:"skill_id"`
		}
		_ = json.Unmarshal(obj.Arguments, &args)
		k := s.find(args.SkillID)
		if k == nil || s.noDescribe {
			return s.task(refuse(a2a.StateFailed, skiface.SkillNotAdvertised, "no such skill"))
		}
		if k.failWith != "" {
			return s.task(refuse(a2a.StateFailed, k.failWith, "the interface cannot currently be returned"))
		}
		ret := k.retDigest
		if ret == "" {
			ret = k.advertisedDigest()
		}
		result := map[string]any{"skill": skiface.DescribeSkill, "result": map[string]any{"interface_digest": ret, "interface": json.RawMessage(k.doc)}}
		t := &a2a.Task{Artifacts: []a2a.Artifact{{ArtifactID: "interface", Name: skiface.DescribeSkill, Parts: []a2a.Part{a2a.DataPart(result)}}}}
		if s.pad > 0 {
			t.Metadata, _ = json.Marshal(map[string]string{"extconf.padding": strings.Repeat("p", s.pad)})
		}
		return s.task(a2atest.Reply{Task: t})
	}
	k := s.find(obj.Skill)
	if k == nil {
		return s.task(refuse(a2a.StateRejected, skiface.InputInvalid, "unknown skill"))
	}
	if obj.SkillVersion == nil || obj.InterfaceDigest == nil || *obj.SkillVersion != k.advertisedVersion() || *obj.InterfaceDigest != k.advertisedDigest() {
		return s.task(refuse(a2a.StateRejected, skiface.InterfaceMismatch, "the binding is not the active document's"))
	}
	if k.input != nil {
		if vs := k.input.ValidateJSON(obj.Arguments); len(vs) > 0 {
			return s.task(refuse(a2a.StateRejected, skiface.InputInvalid, "the arguments do not validate"))
		}
	}
	if k.run == nil {
		return s.task(refuse(a2a.StateFailed, skiface.OutputInvalid, "no domain logic"))
	}
	out, recs := k.run(obj.Arguments)
	t := &a2a.Task{}
	for _, r := range recs {
		t.Artifacts = append(t.Artifacts, a2a.Artifact{ArtifactID: r.id, Name: r.kind, Parts: []a2a.Part{{Data: r.value}}})
	}
	t.Artifacts = append(t.Artifacts, a2a.Artifact{ArtifactID: fmt.Sprintf("result-%d", s.seq.Add(1)), Name: k.id,
		Parts: []a2a.Part{a2a.DataPart(map[string]any{"skill": k.id, "result": out})}})
	return s.task(a2atest.Reply{Task: t})
}

func (s *standin) task(r a2atest.Reply) a2atest.Reply {
	if r.Task != nil && s.taskID != "" {
		r.Task.ID = s.taskID
	}
	return r
}

// start serves the stand-in on plain http on 127.0.0.1 (any target's client can reach it).
func (s *standin) start() error {
	for _, k := range s.skills {
		if !k.raw {
			if c, err := skiface.JCS(k.doc); err == nil {
				k.doc = c
			}
		}
		if v, err := skiface.VerifyDocument(k.doc, skiface.Limits{}); err == nil {
			k.input = v.Input
		}
	}
	srv, err := a2atest.Start(a2atest.Agent{Name: "stand-in", Card: s.card, OnSend: s.onSend, Before: s.before}, a2atest.Options{})
	if err != nil {
		return err
	}
	s.srv = srv
	return nil
}

func (s *standin) close() {
	if s.srv != nil {
		s.srv.Close()
	}
}

func (s *standin) cardURL() string { return s.srv.CardURL() }

// count returns how many requests of a kind (describe, domain, other) the stand-in saw.
func (s *standin) count(kind string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, r := range s.log {
		if r.Kind == kind {
			n++
		}
	}
	return n
}

func (s *standin) methods() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, r := range s.log {
		out = append(out, r.Method)
	}
	return out
}

func (s *standin) requests() []received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]received(nil), s.log...)
}

// hits is a loopback listener counting requests: where a document's external reference points.
type hits struct {
	srv *httptest.Server
	n   atomic.Int64
}

func newHits() *hits {
	h := &hits{}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.n.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"enum":["Gbps","Mbps"]}`))
	}))
	return h
}

// decodeAny decodes JSON keeping numbers exact.
func decodeAny(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}
