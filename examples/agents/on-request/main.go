// Command on-request is an agent written from the On Request document (on-request-v1.txt) alone, on a2a-go v2:
// a chapel that gives opening hours to anyone, its prices only to the person who asks (by telephone), and says
// how to reach its staff. It exists so the harness can be tried as a new user would, against an agent that is not
// one of the project's reference agents.
//
//	go run ./examples/agents/on-request -addr 127.0.0.1:0
//
// prints "agent <card URL>" once it listens.
package main

import (
	"context"
	"flag"
	"fmt"
	"iter"
	"log"
	"net"
	"net/http"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

// extURI is the extension's URI (document header).
const extURI = "https://agent-capability.org/ext/on-request/v1"

// personEntry is where a person asks (OR-3.4: "a tel: number answered by or for the operator"). The same for every
// caller (OR-3.8).
const personEntry = "tel:+12025550143"

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "listen address (loopback)")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	mux := http.NewServeMux()
	mux.Handle("/.well-known/agent-card.json", a2asrv.NewStaticAgentCardHandler(card(base)))
	mux.Handle("/a2a/v1", echoExtensions(a2asrv.NewJSONRPCHandler(a2asrv.NewHandler(chapel{}))))
	fmt.Printf("agent %s/.well-known/agent-card.json\n", base)
	log.Fatal(http.Serve(ln, mux))
}

// card declares the extension (OR-3.1..3.4) with one on-request skill, not opened to assistants (OR-3.5: absent
// means false), a public skill, and the escalation skill of OR-5.10.
func card(base string) *a2a.AgentCard {
	return &a2a.AgentCard{
		Name:                "Independent Chapel assistant",
		Description:         "Answers questions for Independent Chapel. Prices are given to the person who asks, by telephone.",
		Version:             "1.0.0",
		SupportedInterfaces: []*a2a.AgentInterface{a2a.NewAgentInterface(base+"/a2a/v1", a2a.TransportProtocolJSONRPC)},
		Provider:            &a2a.AgentProvider{Org: "Independent Chapel", URL: base},
		Capabilities: a2a.AgentCapabilities{Extensions: []a2a.AgentExtension{{
			URI:         extURI,
			Description: "Skills whose information the chapel gives to the person who asks.",
			Required:    false,
			Params: map[string]any{"skills": []any{
				map[string]any{"id": "service-pricing", "personEntry": personEntry},
			}},
		}}},
		DefaultInputModes:  []string{"text/plain"},
		DefaultOutputModes: []string{"text/plain"},
		Skills: []a2a.AgentSkill{
			{ID: "opening-hours", Name: "Opening hours", Description: "States when the chapel is open.", Tags: []string{"hours"}, Examples: []string{"When is the chapel open?"}},
			{ID: "service-pricing", Name: "Service costs", Description: "Costs of the chapel's services. Given to the person who asks, on request.", Tags: []string{"pricing"}, Examples: []string{"What does a cremation cost?"}},
			{ID: "speak-to-staff", Name: "Speak to a member of staff", Description: "A funeral director answers on +1 202 555 0143, Monday to Friday 09:00 to 17:00, in English.", Tags: []string{"escalation"}, Examples: []string{"Can I speak to a member of staff?"}},
		},
	}
}

type chapel struct{}

// Execute answers with one Message. The same rules hold whether or not the client activated the extension
// (OR-5.1); activation only adds the reply object (OR-6.1).
func (chapel) Execute(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		q := strings.ToLower(textOf(ec.Message))
		var msg *a2a.Message
		switch {
		case strings.Contains(q, "cost") || strings.Contains(q, "price") || strings.Contains(q, "fee"):
			// OR-5.3: not given; say the operator gives it to the person who asks, and where.
			msg = a2a.NewMessage(a2a.MessageRoleAgent, a2a.NewTextPart(
				"Independent Chapel gives its prices to the person who asks. You can ask by telephone: +1 202 555 0143 ("+personEntry+")."))
			if activated(ec) {
				msg.Extensions = []string{extURI}
				msg.SetMeta(extURI, map[string]any{"status": "on-request", "skillId": "service-pricing", "personEntry": personEntry})
			}
		case strings.Contains(q, "staff") || strings.Contains(q, "speak") || strings.Contains(q, "person") || strings.Contains(q, "human"):
			msg = a2a.NewMessage(a2a.MessageRoleAgent, a2a.NewTextPart(
				"A funeral director answers on +1 202 555 0143, Monday to Friday 09:00 to 17:00, in English."))
		default:
			msg = a2a.NewMessage(a2a.MessageRoleAgent, a2a.NewTextPart(
				"Independent Chapel is open Monday to Saturday, 09:00 to 17:00."))
		}
		if ec.ContextID != "" {
			msg.ContextID = ec.ContextID
		}
		yield(msg, nil)
	}
}

func (chapel) Cancel(_ context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
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

// activated reads A2A-Extensions (a list, possibly comma-separated in one value).
func activated(ec *a2asrv.ExecutorContext) bool {
	vals, _ := ec.ServiceParams.Get(a2a.SvcParamExtensions)
	return listed(vals)
}

func listed(vals []string) bool {
	for _, v := range vals {
		for _, u := range strings.Split(v, ",") {
			if strings.TrimSpace(u) == extURI {
				return true
			}
		}
	}
	return false
}

// echoExtensions echoes the activated URI in the response header (A2A extensions guide, "Extension Activation").
func echoExtensions(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if listed(r.Header.Values("A2A-Extensions")) {
			w.Header().Set("A2A-Extensions", extURI)
		}
		next.ServeHTTP(w, r)
	})
}
