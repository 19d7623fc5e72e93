package interview

import (
	"bytes"

	"github.com/extconf/extconf/harness"
	vinterview "github.com/extconf/extconf/refclients/interview"
)

// registerAgentDeclaration: §3, declaration and activation.
func registerAgentDeclaration(e *harness.Env) {
	harness.Spec(e, "IV-3.1", "the card's interview extension entry is not marked required", func(w *harness.W) {
		const row = "IV-3.1"
		_, raw, ex := w.Card(roleMain)
		entry, found := rawExtension(raw, vinterview.URI)
		w.Control(found, "the card's capabilities.extensions has an entry whose uri is exactly "+vinterview.URI, "no such entry", ex)
		req, has := entry["required"]
		ok := !has || string(bytes.TrimSpace(req)) == "false"
		w.Negative(ok, "required absent or false", "required: "+string(req), ex)
	})

	harness.Spec(e, "IV-3.3", "the card declaring the interview extension also declares the terms extension (SHOULD)", func(w *harness.W) {
		const row = "IV-3.3"
		_, raw, ex := w.Card(roleMain)
		_, found := rawExtension(raw, vinterview.URI)
		if !found {
			w.Inapplicable("the card does not declare the interview extension")
		}
		_, terms := rawExtension(raw, termsURI)
		w.Check(terms, "capabilities.extensions has an entry whose uri is exactly "+termsURI, "no terms extension entry", ex)
	})
}
