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

// BenchmarkInterfaceDigestRepeat is one describe call's digest of a document already seen (agent starts, stand-in
// starts and describe calls digest the same documents again and again).
func BenchmarkInterfaceDigestRepeat(b *testing.B) {
	doc := mustRead("testdata/evaluate_resource_condition.json")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := InterfaceDigest(doc); err != nil {
			b.Fatal(err)
		}
	}
}
