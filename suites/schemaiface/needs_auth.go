package schemaiface

import (
	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/catalog"
)

// cardOnlyRows are the rows registerCard grades from the Agent Card alone: an agent that refuses unauthenticated
// callers leaves them gradable without a credential.
var cardOnlyRows = map[string]bool{
	"SI-2.1a": true, "SI-9.1a": true, "SI-9.1b": true, "SI-9.2": true, "SI-9.5a": true, "SI-9.5b": true,
	"SI-9.6a": true, "SI-9.6b": true, "SI-9.6c": true, "SI-9.7": true, "SI-9.9": true,
}

// credentialNeed is what config init and check report when describe_skill was refused with HTTP 401 and no
// credential names principal A: every agent row that sends a request is blocked (sess.unauthenticated), so the
// prediction names principals.A for them instead of counting them blocked on other members, or not at all.
func credentialNeed() harness.Need {
	var rows []string
	for _, r := range catalog.MustLoad().ByDocument(docID) {
		if r.Witnessable() && !r.SelfCheck() && !cardOnlyRows[r.ID] {
			rows = append(rows, r.ID)
		}
	}
	return harness.Need{Member: "principals.A", Rows: rows,
		What: "a credential for principal A: the agent refuses unauthenticated requests (HTTP 401); name one in credentials and documents.schema-interface.principals"}
}
