package schemaifaceclient

import (
	"fmt"
	"slices"
	"strings"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/refclients/skiface"
)

// maybeOutput is the worked example whose result is "maybe", outside the output schema's enumeration.
func maybeOutput() *skill {
	k := exampleSkill()
	k.run = exampleRun(strings.Replace(exampleOutput, "condition_not_met", "maybe", 1), exampleRecord)
	return k
}

// invalidOutput runs the control and then the procedure against an agent completing with invalid output.
func invalidOutput(w *harness.W, row string) (*standin, *skiface.Result) {
	good := exampleStandin(w, row)
	c := newClient(w)
	res, err := invokeExample(w, c, good)
	w.Control(err == nil && res.Output != nil && res.Err == nil, "the example's output is validated and delivered", errText(res), lastEx(res))
	s := start(w, row, &standin{skills: []*skill{maybeOutput()}})
	res, _ = invokeExample(w, c, s)
	return s, res
}

func registerOutput(e *harness.Env) {
	spec(e, "SI-9.59", "the reference client validates the received output and supporting records itself", func(w *harness.W) {
		const row = "SI-9.59"
		_, res := invalidOutput(w, row)
		w.Negative(res.Err != nil && res.Err.Code == skiface.OutputInvalid, `a completed task whose result is "maybe" is flagged output_invalid`, errText(res), lastEx(res))
		s := start(w, row, &standin{skills: []*skill{withRecord("2026-08-11")}})
		res, _ = invokeExample(w, newClient(w), s)
		w.Negative(res.Err != nil && res.Err.Code == skiface.OutputInvalid, "a supporting record failing its kind's schema is flagged output_invalid", errText(res), lastEx(res))
	})

	spec(e, "SI-9.49b", "the reference client reports invalid received output as output_invalid, not interface_invalid", func(w *harness.W) {
		const row = "SI-9.49b"
		_, res := invalidOutput(w, row)
		w.Negative(res.Err != nil && res.Err.Code == skiface.OutputInvalid, "code output_invalid", errText(res), lastEx(res))
	})

	spec(e, "SI-9.56b", "the reference client's output_invalid details name the invalid field with an RFC 6901 instance_path", func(w *harness.W) {
		const row = "SI-9.56b"
		_, res := invalidOutput(w, row)
		var paths []string
		ok := res.Err != nil && len(res.Err.Details) > 0
		if ok {
			for _, d := range res.Err.Details {
				paths = append(paths, d.InstancePath)
				ok = ok && skiface.ParsePointer(d.InstancePath) == nil && d.InstancePath != ""
			}
		}
		w.Negative(ok && slices.Contains(paths, "/result"), `details[] entries with instance_path JSON Pointers, one of them "/result"`,
			fmt.Sprintf("instance paths %q; %s", paths, errText(res)), lastEx(res))
	})

	spec(e, "SI-9.60a", "the reference client hands no invalid output to its caller", func(w *harness.W) {
		const row = "SI-9.60a"
		_, res := invalidOutput(w, row)
		w.Negative(res.Output == nil && res.Records == nil && !res.SchemaGoverned, "no output value and no records delivered",
			fmt.Sprintf("output %s", res.Output), lastEx(res))
	})

	spec(e, "SI-9.60b", "the reference client reports output_invalid locally and leaves the remote task state as reported", func(w *harness.W) {
		const row = "SI-9.60b"
		s, res := invalidOutput(w, row)
		after := s.methods()
		w.Negative(res.Err != nil && res.Local && res.Err.Code == skiface.OutputInvalid && res.RemoteState == a2a.StateCompleted &&
			len(after) == 2 && after[len(after)-1] == a2a.MethodSendMessage,
			"local output_invalid; remote state TASK_STATE_COMPLETED as reported; nothing sent after the domain-skill request",
			fmt.Sprintf("%s; remote state %s; requests at the agent %v", errText(res), res.RemoteState, after), lastEx(res))
	})
}
