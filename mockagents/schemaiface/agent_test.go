package schemaiface

import (
	"bytes"
	"encoding/json"
	"testing"

	sifx "github.com/extconf/extconf/fixtures/schemaiface"
	"github.com/extconf/extconf/refclients/skiface"
	"github.com/extconf/extconf/sabotage"
)

// The evaluate_resource_condition document the agent assembles at start-up is the worked example's, byte for
// byte under JCS, so its digests are the draft's test vectors.
func TestAssembledExampleIsTheDraftsDocument(t *testing.T) {
	a, err := newAgent(sabotage.Set{})
	if err != nil {
		t.Fatal(err)
	}
	sk := a.skills[skillEvaluate]
	if sk.digest != sifx.ExampleInterfaceDigest || sk.cardDigest != sifx.ExampleInterfaceDigest {
		t.Fatalf("digest %s / advertised %s, want %s", sk.digest, sk.cardDigest, sifx.ExampleInterfaceDigest)
	}
	var res struct {
		Result struct {
			Interface json.RawMessage `json:"interface"`
		} `json:"result"`
	}
	if err := json.Unmarshal(sifx.Example("describe-result"), &res); err != nil {
		t.Fatal(err)
	}
	want, _ := skiface.JCS(res.Result.Interface)
	got, _ := skiface.JCS(sk.published)
	if !bytes.Equal(got, want) {
		t.Fatalf("assembled document differs from the example:\n%s\n%s", got, want)
	}
	for _, c := range []struct{ got, want string }{
		{sk.ver.Doc.InputSchema.Digest, sifx.ExampleInputDigest},
		{sk.ver.Doc.OutputSchema.Digest, sifx.ExampleOutputDigest},
		{sk.ver.Doc.SupportingRecordSchemas[0].SchemaReference.Digest, sifx.ExampleRecordDigest},
	} {
		if c.got != c.want {
			t.Errorf("schema digest %s, want %s", c.got, c.want)
		}
	}
}

func TestStartUpAdvertisesOnlyValidatedSkills(t *testing.T) {
	a, err := newAgent(sabotage.Set{})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range a.order {
		sk := a.skills[id]
		switch {
		case id == skillBrokenInit && (sk.advertised || sk.initErr == nil):
			t.Errorf("%s: advertised=%v initErr=%v, want a start-up failure and no advertisement", id, sk.advertised, sk.initErr)
		case id != skillBrokenInit && (!sk.advertised || sk.initErr != nil):
			t.Errorf("%s: advertised=%v initErr=%v", id, sk.advertised, sk.initErr)
		}
	}
	// Every sabotage toggle of the document can be switched on without breaking start-up.
	for _, tg := range sabotage.All() {
		if tg.Document != "schema-interface" || tg.Side != sabotage.SideAgent {
			continue
		}
		if _, err := newAgent(sabotage.MustParse(tg.ID)); err != nil {
			t.Errorf("%s: %v", tg.ID, err)
		}
	}
}
