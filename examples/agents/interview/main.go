// Command interview is an agent written from the A2A Interview extension document (a2a-interview-v1.txt) alone, on
// a2a-go v2: a small agent with one ordinary skill that answers the five interview questions as projections of its
// own signed card. It publishes no terms, so interview/terms answers "declared": false (§4 rule 4).
//
//	go run ./examples/agents/interview -addr 127.0.0.1:0
//
// prints "agent <card URL>" once it listens. The card is signed (A2A §8.4) with an ES256 key generated at start
// (a test key: it lives only in memory) and published as a JWK Set on the agent's own origin (jku).
package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"flag"
	"fmt"
	"iter"
	"log"
	"net"
	"net/http"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

// extURI is the extension's URI (§2).
const extURI = "https://agentsow.com/extensions/a2a-interview/v1"

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "listen address (loopback)")
	private := flag.Bool("private-tasks", false, "keep a2a-go's default: ListTasks answers named users only, and this agent names none")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		log.Fatal(err)
	}
	cardBytes, card, jwks, err := signedCard(base, key)
	if err != nil {
		log.Fatal(err)
	}
	iv := &interviewer{card: card}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/agent-card.json", serveBytes(cardBytes))
	mux.HandleFunc("/.well-known/jwks.json", serveBytes(jwks))
	var opts []a2asrv.RequestHandlerOption
	if !*private {
		opts = append(opts, a2asrv.WithCallInterceptors(public{}))
	}
	mux.Handle("/a2a/v1", iv.wrap(a2asrv.NewJSONRPCHandler(a2asrv.NewHandler(hours{}, opts...))))
	fmt.Printf("agent %s/.well-known/agent-card.json\n", base)
	log.Fatal(http.Serve(ln, mux))
}

func serveBytes(b []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(b)
	}
}

// baseCard is the card before signing. It carries no explicit default value (A2A §8.4: such members are left out of
// the signed bytes, and SDKs disagree on them), so the signed bytes are the served ones.
func baseCard(base string) *a2a.AgentCard {
	return &a2a.AgentCard{
		Name:                "Independent Library desk",
		Description:         "Tells callers when the library is open. Answers the interview from this card.",
		Version:             "2.1.0",
		SupportedInterfaces: []*a2a.AgentInterface{a2a.NewAgentInterface(base+"/a2a/v1", a2a.TransportProtocolJSONRPC)},
		Provider:            &a2a.AgentProvider{Org: "Independent Library", URL: base},
		Capabilities: a2a.AgentCapabilities{Extensions: []a2a.AgentExtension{{
			URI:         extURI,
			Description: "The five questions, answered from declared documents",
		}}},
		DefaultInputModes:  []string{"text/plain"},
		DefaultOutputModes: []string{"text/plain"},
		Skills: []a2a.AgentSkill{
			{ID: "opening-hours", Name: "Opening hours", Description: "States when the library is open.", Tags: []string{"hours"}, Examples: []string{"When is the library open?"}},
			{ID: "renewals", Name: "Loan renewals", Description: "Explains how loans are renewed.", Tags: []string{"loans"}, InputModes: []string{"text/plain"}, OutputModes: []string{"text/plain"}},
		},
	}
}

// hours is the ordinary skill: interview methods never reach it (§6 rule 3).
type hours struct{}

func (hours) Execute(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		msg := a2a.NewMessage(a2a.MessageRoleAgent, a2a.NewTextPart("The library is open Monday to Friday, 09:00 to 18:00."))
		msg.ContextID = ec.ContextID
		yield(msg, nil)
	}
}

func (hours) Cancel(_ context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCanceled, nil), nil)
	}
}

// public makes every caller the one public user: the agent has no security scheme, and a2a-go's task store serves
// ListTasks only to a named user (a verifier observes through ListTasks that interview calls create no task, §4
// rule 2).
type public struct {
	a2asrv.PassthroughCallInterceptor
}

func (public) Before(ctx context.Context, cc *a2asrv.CallContext, _ *a2asrv.Request) (context.Context, any, error) {
	cc.User = a2asrv.NewAuthenticatedUser("public", nil)
	return ctx, nil, nil
}
