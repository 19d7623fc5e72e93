package schemaifaceclient

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"strings"

	. "github.com/onsi/ginkgo/v2"

	sfx "github.com/extconf/extconf/fixtures/schemaifaceclient"
	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/refclients/skiface"
)

// Role is the target role of the document's agent.
const Role = "schema-interface"

// Suite is the reference-client suite; it shares the document (and its applicability) with the agent suite.
func Suite() harness.Suite {
	return harness.Suite{Document: "schema-interface", Applicable: nil, Register: register}
}

func register(e *harness.Env) {
	registerRequests(e)
	registerDocument(e)
	registerSchemas(e)
	registerLimits(e)
	registerLocal(e)
	registerOutput(e)
	registerDelegation(e)
	registerCompose(e)
}

// spec declares a one-row spec whose text starts with the row id.
func spec(e *harness.Env, row, text string, body func(w *harness.W)) {
	harness.Spec(e, row, text, body)
}

// newClient is a fresh reference client on the run's recording A2A client, with the run's toggles.
func newClient(w *harness.W) *skiface.Client {
	e := w.Env()
	return &skiface.Client{A2A: e.Client, Sabotage: e.Sabotage, Fetch: loopbackFetch(e.Client)}
}

// loopbackFetch is the retrieval a sabotaged validator would do: only loopback http(s), refused before dialing
// otherwise, through the recording client.
func loopbackFetch(c *a2a.Client) func(ctx context.Context, u string) ([]byte, error) {
	return func(ctx context.Context, raw string) ([]byte, error) {
		u, err := url.Parse(raw)
		if err != nil {
			return nil, err
		}
		ip := net.ParseIP(u.Hostname())
		if (u.Scheme != "http" && u.Scheme != "https") || ip == nil || !ip.IsLoopback() {
			return nil, fmt.Errorf("refused before dialing: %s is not a loopback http(s) URL", raw)
		}
		b, _, err := c.FetchJSON(ctx, raw, a2a.Call{Note: "schema retrieval (sabotaged validator)"})
		return b, err
	}
}

// start starts a stand-in for the spec's lifetime; a stand-in that cannot start fails row.
func start(w *harness.W, row string, s *standin) *standin {
	if err := s.start(); err != nil {
		w.Failf(nil, "a local stand-in agent starts on 127.0.0.1", "%v", err)
	}
	DeferCleanup(s.close)
	w.Env().OwnListener(s.cardURL()) // the run's own listener: reachable even when the target is remote
	return s
}

// exampleSkill is the worked example's skill: its document, and a domain run returning the example's result.
func exampleSkill() *skill {
	return &skill{id: sfx.ExampleSkill, name: "Evaluate resource condition", doc: sfx.ExampleDocument(), run: exampleRun(exampleOutput, exampleRecord)}
}

const (
	exampleOutput = `{"result":"condition_not_met","observed_value":42,"unit":"percent","supporting_record_refs":["observation-7"]}`
	exampleRecord = `{"record_id":"observation-7","resource_id":"network-resource-123","metric":"utilization","value":42,"unit":"percent","observed_at":"2026-08-11T12:00:01Z"}`
)

func exampleRun(out, rec string) func(json.RawMessage) (json.RawMessage, []record) {
	return func(json.RawMessage) (json.RawMessage, []record) {
		return json.RawMessage(out), []record{{kind: "resource-observation", id: "observation-7", value: json.RawMessage(rec)}}
	}
}

// exampleStandin is a correct agent serving the worked example.
func exampleStandin(w *harness.W, row string) *standin {
	return start(w, row, &standin{skills: []*skill{exampleSkill()}})
}

// editDoc changes a document (decoded generically) and re-encodes it; digests are NOT recomputed.
func editDoc(doc []byte, edit func(m map[string]any)) []byte {
	var m map[string]any
	d := json.NewDecoder(strings.NewReader(string(doc)))
	d.UseNumber()
	if err := d.Decode(&m); err != nil {
		panic(err)
	}
	edit(m)
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return b
}

// redigest recomputes every Schema Reference digest of a document after an edit (the document stays coherent).
func redigest(doc []byte) []byte {
	return editDoc(doc, func(m map[string]any) {
		fix := func(r any) {
			ref, _ := r.(map[string]any)
			res, _ := ref["resolution"].(map[string]any)
			if res == nil || res["schema"] == nil {
				return
			}
			b, _ := json.Marshal(res["schema"])
			if d, err := skiface.SchemaDigest(b); err == nil {
				ref["digest"] = d
			}
		}
		fix(m["input_schema"])
		fix(m["output_schema"])
		recs, _ := m["supporting_record_schemas"].([]any)
		for _, r := range recs {
			rm, _ := r.(map[string]any)
			fix(rm["schema_reference"])
		}
	})
}

// inputSchema returns the mutable input resolution.schema of a decoded document.
func inputSchema(m map[string]any) map[string]any {
	return m["input_schema"].(map[string]any)["resolution"].(map[string]any)["schema"].(map[string]any)
}

// ---- reading what the client sent

// sent is one request the reference client made, decoded.
type sent struct {
	ex     *a2a.Exchange
	method string // JSON-RPC method, or the HTTP+JSON path's last segment ("message:send")
	msg    a2a.Message
	data   map[string]json.RawMessage // the first Data Part's members (nil without one)
}

// sentAt returns the requests the client made at a step of its procedure (by the exchange note).
func sentAt(res *skiface.Result, step string) []sent {
	var out []sent
	for _, ex := range res.Exchanges {
		if ex == nil || !strings.HasSuffix(ex.Note, step) {
			continue
		}
		s := sent{ex: ex}
		var env struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		body := ex.RequestBody
		if json.Unmarshal(body, &env) == nil && env.Method != "" {
			s.method = env.Method
			body = env.Params
		} else if i := strings.LastIndex(ex.URL, "/"); i >= 0 {
			s.method = ex.URL[i+1:]
		}
		var p struct {
			Message a2a.Message `json:"message"`
		}
		_ = json.Unmarshal(body, &p)
		s.msg = p.Message
		for _, part := range s.msg.Parts {
			if len(part.Data) > 0 {
				_ = json.Unmarshal(part.Data, &s.data)
				break
			}
		}
		out = append(out, s)
	}
	return out
}

func describes(res *skiface.Result) []sent { return sentAt(res, skiface.Step3Describe) }
func domains(res *skiface.Result) []sent   { return sentAt(res, skiface.Step8Delegate) }

func str(raw json.RawMessage) string {
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}

func lastEx(res *skiface.Result) *a2a.Exchange {
	if res == nil || len(res.Exchanges) == 0 {
		return nil
	}
	return res.Exchanges[len(res.Exchanges)-1]
}

// errText describes a procedure outcome for failure messages.
func errText(res *skiface.Result) string {
	if res == nil {
		return "no result"
	}
	if res.Err == nil {
		return fmt.Sprintf("completed (task %v, state %s)", res.Task, res.RemoteState)
	}
	return fmt.Sprintf("stopped: code %q local=%v at %q: %v", res.Err.Code, res.Local, res.Err.Step, res.Err)
}

func ctx(w *harness.W) context.Context { return w.Ctx() }

// ---- the subject of the request-shape specs

// subject is where the request-shape specs run the full procedure: a local stand-in serving the worked example.
// These rows bind the harness's reference client, so they never run on the target: a self-check reads the same
// whatever the target is.
type subject struct {
	cardURL, skill string
	args           json.RawMessage
	client         *skiface.Client
}

func pickSubject(w *harness.W, row string) subject {
	s := exampleStandin(w, row)
	return subject{cardURL: s.cardURL(), skill: sfx.ExampleSkill, args: sfx.ExampleArguments(), client: newClient(w)}
}

// fullRun runs the whole procedure on a subject. Its completion is a positive control: a procedure that sent no
// request object blocks the row. One the counterpart stopped after the client had sent its requests does not: these
// rows judge the requests the client put on the wire, which a refusal of them must not hide (a request the
// procedure never reached blocks the row in one).
func fullRun(w *harness.W, row string, s subject) *skiface.Result {
	res, err := s.client.Invoke(w.Ctx(), skiface.Request{CardURL: s.cardURL, SkillID: s.skill, Arguments: s.args})
	where := "a local stand-in serving the worked example"
	if err != nil && res != nil && len(describes(res))+len(domains(res)) > 0 {
		return res
	}
	w.Control(err == nil && res.Output != nil, fmt.Sprintf("the reference client completes the procedure for %s on %s", s.skill, where), errText(res), lastEx(res))
	return res
}

// invokeExample has the reference client c run the worked example (its skill and valid arguments) against s.
func invokeExample(w *harness.W, c *skiface.Client, s *standin) (*skiface.Result, error) {
	return c.Invoke(ctx(w), skiface.Request{CardURL: s.cardURL(), SkillID: sfx.ExampleSkill, Arguments: sfx.ExampleArguments()})
}
