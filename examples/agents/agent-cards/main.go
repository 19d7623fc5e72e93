// Command agent-cards is an OpenWOP v2 workflow host written from RFC 0202 (openwop-rfc-0202-agent-cards.txt) and
// the OpenWOP v2 discovery notes alone, on a2a-go v2: a freight platform whose tenants install agents, each
// agent of a caller's inventory published as an A2A card behind an opaque routing value. It exists so the harness
// can be tried as a new user would, against a host that is not the project's reference host.
//
//	go run ./examples/agents/agent-cards -addr 127.0.0.1:0
//
// prints "agent <card URL>" once it listens.
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"

	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

type host struct {
	base   string
	secret []byte // keys the routing values; a deployment reads it from its secret store
	tasks  *store
}

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "listen address (loopback)")
	secret := flag.String("secret", "test-routing-secret-not-for-production", "key of the routing values")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	h := &host{base: "http://" + ln.Addr().String(), secret: []byte(*secret), tasks: newStore()}
	handler := a2asrv.NewHandler(runner{},
		a2asrv.WithTaskStore(h.tasks),
		a2asrv.WithCallInterceptors(gate{h: h}),
		a2asrv.WithExtendedAgentCardProducer(a2asrv.ExtendedAgentCardProducerFn(h.cardFor)),
		a2asrv.WithCapabilityChecks(&h.publicCard().Capabilities),
	)
	mux := http.NewServeMux()
	mux.Handle("GET /.well-known/agent-card.json", a2asrv.NewStaticAgentCardHandler(h.publicCard()))
	mux.HandleFunc("GET /.well-known/openwop", h.discovery)
	mux.HandleFunc("GET /v2/agents", h.agentsList) // the platform's OpenWOP v2 API lives under /v2
	mux.HandleFunc("GET /v2/agents/{agentId}", h.agentGet)
	mux.Handle("POST /a2a", a2asrv.NewJSONRPCHandler(handler))
	mux.Handle("/a2a/http/", http.StripPrefix("/a2a/http", rest(handler)))
	fmt.Printf("agent %s/.well-known/agent-card.json\n", h.base)
	log.Fatal(http.Serve(ln, mux))
}
