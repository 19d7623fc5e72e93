package suite

import "example.com/m/harness"

type suite struct{ e *harness.Env }

func (s *suite) spec(row, text string, body func(w *harness.W)) { harness.Spec(s.e, row, text, body) }

func wrap(e *harness.Env, row, text string) { harness.Spec(e, row, text, nil) }

type specFn func(row, text string, body func(w *harness.W))

func register(e *harness.Env) {
	harness.Spec(e, "R-1", "direct", nil)
	s := &suite{e}
	s.spec("R-2", "method", nil)
	wrap(e, "R-3", "func")
	spec := func(row, text string, body func(w *harness.W)) { harness.Spec(e, row, text, body) }
	through(spec)
	for _, c := range []struct{ row, what string }{{"R-5", "a"}, {row: "R-6", what: "b"}} {
		c := c
		spec(c.row, "table "+c.what, nil)
	}
	harness.Spec(e, "NOT-A-ROW", "unknown", nil)
}

func through(spec specFn) {
	spec("R-4", "closure passed as a parameter", nil)
}
