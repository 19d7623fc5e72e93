package schemaifaceclient

import (
	"encoding/json"
	"errors"
	"fmt"

	sfx "github.com/extconf/extconf/fixtures/schemaifaceclient"
	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/refclients/skiface"
)

func example(s *standin) skiface.Request {
	return skiface.Request{CardURL: s.cardURL(), SkillID: sfx.ExampleSkill, Arguments: sfx.ExampleArguments()}
}

func registerDelegation(e *harness.Env) {
	spec(e, "SI-9.61b", "the reference client binds a cached document to the target it came from", func(w *harness.W) {
		const row = "SI-9.61b"
		s1 := exampleStandin(w, row)
		s2 := exampleStandin(w, row) // the same document and digest, another agent
		c := newClient(w)
		_, err1 := c.Invoke(ctx(w), example(s1))
		res, err2 := c.Invoke(ctx(w), example(s1))
		w.Control(err1 == nil && err2 == nil && s1.count("describe") == 1 && s1.count("domain") == 2,
			"a second task at the same target reuses the validated document (one describe_skill, two tasks)",
			fmt.Sprintf("describe %d, domain %d; %s", s1.count("describe"), s1.count("domain"), errText(res)), lastEx(res))
		res, err := c.Invoke(ctx(w), example(s2))
		w.Negative(err == nil && s2.count("describe") == 1 && !res.Interface.FromCache,
			"delegating to a second target advertising the same skill, version and digest first calls that target's describe_skill",
			fmt.Sprintf("describe_skill at the second target: %d; %s", s2.count("describe"), errText(res)), lastEx(res))
	})

	spec(e, "SI-9.62a", "the reference client does not delegate when describe_skill is absent from the card", func(w *harness.W) {
		const row = "SI-9.62a"
		refusal(w, row, newClient(w), &standin{skills: []*skill{exampleSkill()}, noDescribe: true}, skiface.SkillNotAdvertised,
			"a card advertising the extension and the skill but no describe_skill AgentSkill")
	})

	spec(e, "SI-9.62b", "the reference client does not delegate when describe_skill fails", func(w *harness.W) {
		const row = "SI-9.62b"
		k := exampleSkill()
		k.failWith = skiface.InterfaceUnavailable
		bad := &standin{skills: []*skill{k}}
		res := refusal(w, row, newClient(w), bad, "", "describe_skill ends TASK_STATE_FAILED with interface_unavailable")
		w.Check(res.RemoteCode == skiface.InterfaceUnavailable && bad.count("describe") == 1,
			"the agent's interface_unavailable is reported", fmt.Sprintf("remote code %q", res.RemoteCode), lastEx(res))
	})

	deny := errors.New("the local policy denies this skill to this caller")
	spec(e, "SI-8.2a", "the reference client's local permission check runs whatever the document's authority says", func(w *harness.W) {
		const row = "SI-8.2a"
		s := exampleStandin(w, row) // authority: observe_only, approval_may_be_required false
		c := newClient(w)
		c.Policy.Permit = func(string, json.RawMessage) error { return nil }
		res, err := c.Invoke(ctx(w), example(s))
		w.Control(err == nil && s.count("domain") == 1, "a permitting local policy: delegated", errText(res), lastEx(res))
		c.Policy.Permit = func(string, json.RawMessage) error { return deny }
		res, _ = c.Invoke(ctx(w), example(s))
		w.Negative(s.count("domain") == 1 && res.Err != nil && res.Err.Code == skiface.AuthorizationFailed && res.Local,
			"a denying local policy stops an observe_only skill: authorization_failed locally, nothing sent",
			fmt.Sprintf("%d domain requests in total; %s", s.count("domain"), errText(res)), lastEx(res))
	})

	spec(e, "SI-12.4a", "approval_may_be_required false never bypasses the reference client's local approval step", func(w *harness.W) {
		const row = "SI-12.4a"
		s := exampleStandin(w, row)
		c := newClient(w)
		c.Policy.Approve = func(string, json.RawMessage) error { return nil }
		res, err := c.Invoke(ctx(w), example(s))
		w.Control(err == nil && s.count("domain") == 1, "an approved invocation is delegated", errText(res), lastEx(res))
		c.Policy.Approve = func(string, json.RawMessage) error { return errors.New("no approval recorded") }
		res, _ = c.Invoke(ctx(w), example(s))
		w.Negative(s.count("domain") == 1 && res.Err != nil && res.Err.Code == skiface.AuthorizationFailed,
			"without the local approval the invocation stops although the document says approval_may_be_required false",
			fmt.Sprintf("%d domain requests in total; %s", s.count("domain"), errText(res)), lastEx(res))
	})

	spec(e, "SI-6.2", "the reference client keys tasks by issuing endpoint and task id", func(w *harness.W) {
		const row = "SI-6.2"
		s1 := start(w, row, &standin{skills: []*skill{exampleSkill()}, taskID: "task-123"})
		s2 := start(w, row, &standin{skills: []*skill{exampleSkill()}, taskID: "task-123"})
		c := newClient(w)
		r1, err := c.Invoke(ctx(w), example(s1))
		w.Control(err == nil && len(c.Tasks()) == 1, "the first endpoint's task-123 is tracked", errText(r1), lastEx(r1))
		r2, err := c.Invoke(ctx(w), example(s2))
		w.Control(err == nil, "the second endpoint also issues task-123", errText(r2), lastEx(r2))
		w.Negative(len(c.Tasks()) == 2, "two tasks tracked, one per endpoint", fmt.Sprintf("%d tracked: %+v", len(c.Tasks()), keys(c.Tasks())), lastEx(r2))
		for _, r := range []*skiface.Result{r1, r2} {
			t, ex, err := c.Refresh(ctx(w), *r.Task)
			w.Check(err == nil && t != nil && ex != nil && ex.URL == r.Task.Endpoint, "GetTask for "+r.Task.ID+" goes to "+r.Task.Endpoint,
				fmt.Sprintf("%v, sent to %s", err, exURL(ex)), ex)
		}
	})

	spec(e, "SI-6.1", "the delegating reference client never reuses the upstream task id for the downstream task", func(w *harness.W) {
		const row = "SI-6.1"
		// What the client sent downstream is the row; the downstream's refusal of a reused id must not hide it, so
		// it is judged before the composition's control.
		_, down, comp, err := composeTry(w, row, "assess_link_health", nil)
		var sentIDs []string // as the client put them on the wire (the downstream may refuse before reading them)
		if comp != nil && comp.Down != nil {
			for _, s := range domains(comp.Down) {
				sentIDs = append(sentIDs, s.msg.TaskID)
			}
		}
		if comp == nil || comp.Up == nil || comp.Up.Task == nil || len(sentIDs) == 0 {
			composeControl(w, "assess_link_health", down, comp, err)
		}
		upID := comp.Up.Task.ID
		w.Check(len(sentIDs) == 1 && sentIDs[0] == "", "the downstream Message carries no taskId (a new task), never "+upID,
			fmt.Sprintf("downstream message taskId %q", sentIDs), lastEx(comp.Down))
		composeControl(w, "assess_link_health", down, comp, err)
		w.Check(comp.Down.Task != nil && comp.Down.Task.ID != upID && comp.Correlation != nil && comp.Correlation.Downstream.TaskID == comp.Down.Task.ID,
			"the downstream task id recorded is the one the downstream endpoint issued", fmt.Sprintf("downstream %v, correlation %+v", comp.Down.Task, comp.Correlation), lastEx(comp.Down))
	})

	spec(e, "SI-6.3", "the reference client records the delegation hop in separately named fields, never in a protocol task id", func(w *harness.W) {
		const row = "SI-6.3"
		_, _, comp := composeRun(w, row, "assess_link_health", nil)
		c := comp.Correlation
		ok := c != nil && c.Upstream.TaskID == comp.Up.Task.ID && c.Upstream.Endpoint == comp.Up.Task.Endpoint &&
			c.Downstream.TaskID == comp.Down.Task.ID && c.Downstream.Endpoint == comp.Down.Task.Endpoint &&
			c.Upstream.SkillID != "" && c.Downstream.SkillID != ""
		w.Check(ok, "upstream {endpoint, task_id, skill} and downstream {endpoint, task_id, skill} as issued",
			fmt.Sprintf("correlation %s; issued up %v down %v", mustJSON(c), comp.Up.Task, comp.Down.Task), lastEx(comp.Down))
	})

	spec(e, "SI-9.63", "the delegating reference client keeps both task ids as distinct values in its correlation record", func(w *harness.W) {
		const row = "SI-9.63"
		_, _, comp := composeRun(w, row, "assess_link_health", nil)
		c := comp.Correlation
		ok := c != nil && c.Upstream.TaskID != "" && c.Downstream.TaskID != "" && c.Upstream.TaskID == comp.Up.Task.ID && c.Downstream.TaskID == comp.Down.Task.ID
		w.Check(ok, "both the upstream and the downstream task id are kept", fmt.Sprintf("correlation %s", mustJSON(c)), lastEx(comp.Down))
	})
}

func keys(ts []skiface.TaskRecord) []skiface.TaskKey {
	var out []skiface.TaskKey
	for _, t := range ts {
		out = append(out, t.Key)
	}
	return out
}
