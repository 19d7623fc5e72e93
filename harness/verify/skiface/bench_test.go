package skiface

import (
	"encoding/json"
	"strings"
	"testing"
)

func BenchmarkCompileExampleInput(b *testing.B) {
	doc := mustRead("testdata/evaluate_resource_condition.json")
	d, _ := ParseDocument(doc)
	ref, _ := json.Marshal(d.InputSchema)
	for i := 0; i < b.N; i++ {
		if _, err := CompileSchema(ref, Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkVerifyExample(b *testing.B) {
	doc := mustRead("testdata/evaluate_resource_condition.json")
	for i := 0; i < b.N; i++ {
		if _, err := VerifyDocument(doc, Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCompilePadded(b *testing.B) {
	r := ref(`{"description":"` + strings.Repeat("p", 60<<10) + `","type":"object"}`)
	for i := 0; i < b.N; i++ {
		compiledMemo = &memo{m: map[memoKey]memoEntry{}}
		if _, err := CompileSchema(r, Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}
