// Command terms is an agent written from the A2A Terms extension document (a2a-terms-v1.txt) alone, on a2a-go v2:
// a contract-translation office that publishes its terms as a signed Agent SoW standing proposal and commits its
// card to it by digest, with a negotiated (directed) offer listed only in the extended card of the client it names.
// It exists so the harness can be tried as a new user would, against an agent that is not one of the project's
// reference agents.
//
//	go run ./examples/agents/terms -addr 127.0.0.1:0 -ca-file /tmp/terms-ca.pem
//
// prints "agent <card URL>" once it listens. Everything is served over HTTPS (terms §3 rule 3: the proposal's url
// MUST be https) with a certificate from a CA made at start (a test CA: it lives only in memory and in -ca-file).
package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

// extURI is the extension's URI (§2).
const extURI = "https://agentsow.com/extensions/a2a-terms/v1"

// Where the proposals live: on the card's own origin (§8, third-party hosting), under dated names, so a revision
// gets a new url and the old one keeps its bytes (§8, substitution after caching).
const (
	publicPath   = "/legal/sow/translate-contract-2026-12.json"
	directedPath = "/legal/sow/clients/berger-partner-2026-12.json"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8443", "listen address (loopback)")
	caFile := flag.String("ca-file", "", "write the test CA's certificate (PEM) to `FILE`, for the caller's trust store")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	tlsConf, err := testTLS(*caFile)
	if err != nil {
		log.Fatal(err)
	}
	base := "https://" + ln.Addr().String()

	// The owner's key signs the proposals; the agent's key names the agent in parties.provider. Both are test keys.
	_, owner, _ := ed25519.GenerateKey(rand.Reader)
	agentKey, _, _ := ed25519.GenerateKey(rand.Reader)
	mux := http.NewServeMux()
	publicEntry, body := mustPublish(owner, agentKey, base+publicPath, offer{centsPer100Words: 1200})
	mux.HandleFunc(publicPath, serveJSON(body, "public, max-age=3600"))
	directedEntry, body := mustPublish(owner, agentKey, base+directedPath, offer{centsPer100Words: 1000, offeredTo: bergerOffer})
	mux.HandleFunc(directedPath, onlyFor(body))

	cardFor := func(entries ...map[string]any) *a2a.AgentCard { return card(base, entries) }
	handler := a2asrv.NewHandler(translator{}, a2asrv.WithExtendedAgentCardProducer(extendedCards(publicEntry, directedEntry, cardFor)))
	mux.Handle("/.well-known/agent-card.json", a2asrv.NewStaticAgentCardHandler(card(base, []map[string]any{publicEntry})))
	mux.Handle("/a2a", a2asrv.NewJSONRPCHandler(handler))
	fmt.Printf("agent %s/.well-known/agent-card.json\n", base)
	srv := &http.Server{Handler: mux, TLSConfig: tlsConf, ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(srv.ServeTLS(ln, "", ""))
}

// mustPublish signs a proposal and returns its card entry and the bytes served at url: indented, as an editor
// saves a file (the digest is over the JCS form, §5, so the layout does not matter).
func mustPublish(owner ed25519.PrivateKey, agent ed25519.PublicKey, url string, o offer) (map[string]any, []byte) {
	doc, err := standingProposal(owner, agent, time.Now(), o)
	if err != nil {
		log.Fatal(err)
	}
	sum, err := digest(doc)
	if err != nil {
		log.Fatal(err)
	}
	body, _ := json.MarshalIndent(doc, "", "  ")
	return map[string]any{"url": url, "digest": sum, "sow": doc["id"], "offering": "translate-contract"}, body
}

// card declares the extension with the given entries (§3). The skill descriptions summarize the public proposal's
// clauses (§4: every price, term and data-use claim is backed by a clause).
func card(base string, entries []map[string]any) *a2a.AgentCard {
	proposals := make([]any, len(entries))
	for i, e := range entries {
		proposals[i] = e
	}
	return &a2a.AgentCard{
		Name:                "Kölner Fachübersetzungen",
		Description:         "Contract translation between German and English by Kölner Fachübersetzungen GmbH. Our signed terms of business are listed in this card.",
		Version:             "3.2.0",
		SupportedInterfaces: []*a2a.AgentInterface{a2a.NewAgentInterface(base+"/a2a", a2a.TransportProtocolJSONRPC)},
		Provider:            &a2a.AgentProvider{Org: "Kölner Fachübersetzungen GmbH", URL: base},
		SecuritySchemes: a2a.NamedSecuritySchemes{"clientToken": a2a.HTTPAuthSecurityScheme{
			Scheme: "Bearer", Description: "Client accounts: the extended card lists the terms negotiated with you"}},
		Capabilities: a2a.AgentCapabilities{ExtendedAgentCard: true, Extensions: []a2a.AgentExtension{{
			URI:         extURI,
			Description: "Terms of business: our signed Agent SoW standing proposals",
			Params:      map[string]any{"sow_spec": "0.11.0-draft", "proposals": proposals},
		}}},
		DefaultInputModes:  []string{"text/plain"},
		DefaultOutputModes: []string{"text/plain"},
		Skills: []a2a.AgentSkill{
			{
				ID: "translate-contract", Name: "Contract translation",
				Description: "Translates a contract from German into English or from English into German. " +
					"Billed at EUR 0.12 per source word and capped at EUR 1,500 per engagement. " +
					"Orders can be cancelled with 48 hours' notice. " +
					"Source documents are deleted 14 days after delivery and are never used to train models.",
				Tags:     []string{"translation", "legal"},
				Examples: []string{"Translate this supply agreement into English: …"},
			},
			{
				ID: "detect-language", Name: "Language check",
				Description: "Names the language a document is written in.",
				Tags:        []string{"language"},
				Examples:    []string{"Which language is this clause in?"},
			},
		},
	}
}
