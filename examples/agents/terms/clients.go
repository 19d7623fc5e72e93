package main

// Client accounts and the one negotiated offer: terms §3 rule 5 lets a directed standing proposal appear "only in a
// card served over a channel restricted to the named party", here the authenticated extended card.

import (
	"context"
	"net/http"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

// account is a client of the office, known by its API token (demo tokens: this is an example agent).
type account struct {
	party    string // how the office names the client: its handle
	directed bool   // the client has a negotiated (directed) offer
}

var accounts = map[string]account{
	"Bearer kfue-demo-berger":    {party: "kanzlei@berger-partner.example", directed: true},
	"Bearer kfue-demo-rheinwerk": {party: "einkauf@rheinwerk.example"},
}

// bergerOffer names the law firm the negotiated rate is offered to (Agent SoW §12.1.1: beside the seats, graded).
var bergerOffer = map[string]any{
	"agent":      "HR+H5uYF6OFqTkec28hyKZCBh85g2GWp+L2dmdV4txs=",
	"handle":     "kanzlei@berger-partner.example",
	"owner":      "Berger & Partner Rechtsanwälte PartG mbB",
	"expires_at": "2027-03-31T23:59:59Z",
	"grade":      "evidence",
}

// extendedCards answers GetExtendedAgentCard: the public entries for every client, plus the negotiated one for
// the client it is offered to. Unauthenticated callers get no card.
func extendedCards(public, directed map[string]any, cardFor func(entries ...map[string]any) *a2a.AgentCard) a2asrv.ExtendedAgentCardProducerFn {
	return func(ctx context.Context, _ *a2a.GetExtendedAgentCardRequest) (*a2a.AgentCard, error) {
		cc, _ := a2asrv.CallContextFrom(ctx)
		var auth []string
		if cc != nil {
			auth, _ = cc.ServiceParams().Get("authorization")
		}
		if len(auth) != 1 {
			return nil, a2a.ErrUnauthenticated
		}
		acct, ok := accounts[auth[0]]
		if !ok {
			return nil, a2a.ErrUnauthenticated
		}
		if acct.directed {
			return cardFor(public, directed), nil
		}
		return cardFor(public), nil
	}
}

// onlyFor serves body to the client with the directed offer; anyone else learns nothing about it (A2A §13.1).
func onlyFor(body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		acct, ok := accounts[r.Header.Get("Authorization")]
		switch {
		case r.Header.Get("Authorization") == "":
			w.Header().Set("WWW-Authenticate", `Bearer realm="kfue"`)
			http.Error(w, "authentication required", http.StatusUnauthorized)
		case !ok || !acct.directed:
			http.NotFound(w, r)
		default:
			serveJSON(body, "private, no-store")(w, r)
		}
	}
}

func serveJSON(body []byte, cache string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("Cache-Control", cache)
		_, _ = w.Write(body)
	}
}
