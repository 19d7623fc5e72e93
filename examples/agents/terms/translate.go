package main

import (
	"context"
	"iter"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

// glossary stands in for the office's translators: a handful of contract words, German to English.
var glossary = map[string]string{
	"vertrag": "contract", "lieferant": "supplier", "käufer": "buyer", "kündigung": "termination",
	"frist": "notice period", "haftung": "liability", "gerichtsstand": "place of jurisdiction",
}

// translator runs every request as a task (the proposal's per-task deliverable is one "translation" artifact).
type translator struct{}

func (translator) Execute(_ context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		if ec.StoredTask == nil && !yield(a2a.NewSubmittedTask(ec, ec.Message), nil) {
			return
		}
		words := strings.Fields(textOf(ec.Message))
		for i, w := range words {
			if en, ok := glossary[strings.ToLower(strings.Trim(w, ".,;:"))]; ok {
				words[i] = en
			}
		}
		art := a2a.NewArtifactEvent(ec, a2a.NewTextPart(strings.Join(words, " ")))
		art.Artifact.Name = "translation"
		if !yield(art, nil) {
			return
		}
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCompleted, nil), nil)
	}
}

func (translator) Cancel(_ context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCanceled, nil), nil)
	}
}

func textOf(m *a2a.Message) string {
	if m == nil {
		return ""
	}
	var b strings.Builder
	for _, p := range m.Parts {
		if t, ok := p.Content.(a2a.Text); ok {
			b.WriteString(string(t))
			b.WriteString(" ")
		}
	}
	return b.String()
}
