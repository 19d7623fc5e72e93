package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/mockagents"
	"github.com/extconf/extconf/sabotage"
)

// fleetPrincipal is, per document's reference agent role, the principal (target.Config.Principals) whose
// credential the interop client presents; "" for an agent without authentication.
var fleetPrincipal = map[string]string{
	"agent-cards":      "agent-cards.A",
	"interview":        "",
	"on-request":       "on-request.A",
	"schema-interface": "A",
	"terms":            "terms-A",
}

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "loopback address to listen on")
	useTLS := flag.Bool("tls", true, "serve HTTPS with a certificate issued by the test CA (fixtures/testpki/ca.pem)")
	sign := flag.Bool("sign", true, "sign the card with the test ES256 key and serve the JWKS (jku)")
	fleet := flag.Bool("fleet", true, "also start the five reference agents (clean) and print their card URLs")
	flag.Parse()

	agent := a2atest.Agent{Name: "extconf interop echo agent"}
	if *sign {
		agent.Signer = &a2atest.CardSigner{Key: testpki.CardKeyES256(), Alg: "ES256", KID: testpki.KIDES256, JKU: true}
	}
	s, err := a2atest.Start(agent, a2atest.Options{Addr: *addr, TLS: *useTLS})
	if err != nil {
		fmt.Fprintln(os.Stderr, "serve:", err)
		os.Exit(1)
	}
	fmt.Println(s.CardURL())
	if *fleet {
		tgt, err := mockagents.Start(sabotage.Set{})
		if err != nil {
			fmt.Fprintln(os.Stderr, "serve: reference agents:", err)
			s.Close()
			os.Exit(1)
		}
		defer tgt.Close()
		for _, role := range []string{"agent-cards", "interview", "on-request", "schema-interface", "terms"} {
			u, ok := tgt.Agents[role]
			if !ok {
				fmt.Fprintln(os.Stderr, "serve: no reference agent for role", role)
				s.Close()
				os.Exit(1)
			}
			auth := "-"
			if name := fleetPrincipal[role]; name != "" {
				p, ok := tgt.Config.Principals[name]
				if !ok || p.Header != "Authorization" {
					fmt.Fprintln(os.Stderr, "serve: no Authorization principal", name, "for", role)
					s.Close()
					os.Exit(1)
				}
				auth = p.Value
			}
			fmt.Println("agent", role, u, auth)
		}
	}
	fmt.Println("ready")

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	<-stop
	s.Close()
}
