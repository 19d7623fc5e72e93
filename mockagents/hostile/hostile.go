package hostile

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	sfx "github.com/extconf/extconf/fixtures/schemaiface"
	"github.com/extconf/extconf/harness/target"
)

// Behaviour names one way of misbehaving.
type Behaviour string

// The behaviours. Card behaviours misbehave on GET /.well-known/agent-card.json; the others serve a plausible
// card and misbehave where the harness follows it.
const (
	// Transport and size.
	NeverAnswers     Behaviour = "never-answers"       // the card request is read, no byte of a response ever comes
	OneBytePerSecond Behaviour = "one-byte-per-second" // headers at once, then the card body one byte per second
	HugeBody         Behaviour = "huge-body"           // Content-Length 2 GiB, streamed from one 64 KiB buffer
	EndlessSSE       Behaviour = "endless-sse"         // SendStreamingMessage: one event, then keep-alives forever
	EndlessSSEEvents Behaviour = "endless-sse-events"  // SendStreamingMessage: working-state events forever
	RedirectLoop     Behaviour = "redirect-loop"       // the card URL redirects /loop/a → /loop/b → /loop/a …
	RedirectOffOrig  Behaviour = "redirect-off-origin" // the card URL redirects to the Bystander (another origin)
	RedirectMetadata Behaviour = "redirect-metadata"   // the card URL redirects to http://169.254.169.254/…

	// Card content.
	DeepNesting      Behaviour = "deep-nesting"      // a card member nested 100 000 arrays deep
	InvalidUTF8      Behaviour = "invalid-utf8"      // the card's name holds bytes 0xFF 0xFE
	DuplicateMembers Behaviour = "duplicate-members" // "name" twice: "Benign" first, "Evil" last
	HugeNumbers      Behaviour = "huge-numbers"      // extension params holding 1e400 and -1e999
	ManySkills       Behaviour = "many-skills"       // 100 000 skills (about 6 MB: under the body cap)

	// Terms proposals: the card's terms declaration lists one proposal whose url is …
	ProposalFile       Behaviour = "proposal-url-file"        // file:///etc/passwd
	ProposalPrivate    Behaviour = "proposal-url-private"     // https://10.0.0.1/proposal.json
	ProposalMetadata   Behaviour = "proposal-url-metadata"    // https://169.254.169.254/latest/meta-data/iam
	ProposalPublicName Behaviour = "proposal-url-public-name" // https://proposals.example.com/proposal.json

	// Skill Interface Documents (describe_skill of the schema-interface extension).
	SchemaRefHTTP  Behaviour = "schema-ref-http"             // input schema $ref to the Bystander over http
	SchemaRefFile  Behaviour = "schema-ref-file"             // input schema $ref to file:///etc/passwd
	SchemaPattern  Behaviour = "schema-catastrophic-pattern" // output "unit" pattern ^(a|aa)+$, answered with a…ab
	SchemaRefCycle Behaviour = "schema-ref-cycle"            // $defs a → b → a, in place

	// Card signatures (A2A §8.4), on a card declaring the interview extension.
	JWSAlgNone      Behaviour = "jws-alg-none"       // signatures[0] has alg "none" and an empty signature
	JWSJKUOffOrigin Behaviour = "jws-jku-off-origin" // signed with a key published only at a jku on the Bystander
	JWSJKUMetadata  Behaviour = "jws-jku-metadata"   // signed, jku https://169.254.169.254/…/jwks.json

	// Interfaces: the card declares the interview extension and sends every A2A call to the metadata service.
	InterfaceMetadata Behaviour = "interface-url-metadata" // supportedInterfaces[0].url http://169.254.169.254/…
)

// Behaviours lists every behaviour, sorted.
func Behaviours() []Behaviour {
	out := []Behaviour{NeverAnswers, OneBytePerSecond, HugeBody, EndlessSSE, EndlessSSEEvents, RedirectLoop,
		RedirectOffOrig, RedirectMetadata, DeepNesting, InvalidUTF8, DuplicateMembers, HugeNumbers, ManySkills,
		ProposalFile, ProposalPrivate, ProposalMetadata, ProposalPublicName, SchemaRefHTTP, SchemaRefFile,
		SchemaPattern, SchemaRefCycle, JWSAlgNone, JWSJKUOffOrigin, JWSJKUMetadata, InterfaceMetadata}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Sizes of the attacks.
const (
	HugeBodySize         int64 = 2 << 30 // bytes announced and (if read) sent by HugeBody
	NestingDepth               = 100_000
	SkillCount                 = 100_000
	PatternRunLen              = 64 // a…ab: 64 "a" then "b", exponential for a backtracking engine, short enough to quote
	CatastrophicRE             = "^(a|aa)+$"
	MetadataHost               = "169.254.169.254"
	PrivateHost                = "10.0.0.1"
	PublicName                 = "proposals.example.com"
	PasswdURL                  = "file:///etc/passwd"
	skillEvaluate              = "evaluate_resource_condition"
	keepAliveEvery             = 20 * time.Millisecond
	trickleEvery               = time.Second
	hugeChunk                  = 64 << 10
	endlessEventInterval       = time.Millisecond
)

// Agent is one running hostile agent.
type Agent struct {
	B Behaviour

	ln      net.Listener
	srv     *http.Server
	base    string
	by      *Bystander
	done    chan struct{}
	once    sync.Once
	card    []byte // served card bytes (nil for behaviours that never serve one whole)
	doc     []byte // the Skill Interface Document (schema behaviours)
	written atomic.Int64
	reqs    atomic.Int64
}

// Start serves behaviour b on 127.0.0.1 (and its Bystander on another port).
func Start(b Behaviour) (*Agent, error) {
	known := false
	for _, x := range Behaviours() {
		known = known || x == b
	}
	if !known {
		return nil, fmt.Errorf("hostile: unknown behaviour %q", b)
	}
	by, err := startBystander()
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		by.Close()
		return nil, err
	}
	a := &Agent{B: b, ln: ln, by: by, done: make(chan struct{}), base: "http://" + ln.Addr().String()}
	if err := a.build(); err != nil {
		ln.Close()
		by.Close()
		return nil, err
	}
	a.srv = &http.Server{Handler: a.handler(), ReadHeaderTimeout: 5 * time.Second, MaxHeaderBytes: 64 << 10}
	go a.srv.Serve(ln) //nolint:errcheck // ends with Close
	return a, nil
}

// URL is the agent's origin, "http://127.0.0.1:PORT".
func (a *Agent) URL() string { return a.base }

// Addr is the "127.0.0.1:PORT" the harness may dial.
func (a *Agent) Addr() string { return a.ln.Addr().String() }

// CardURL is where the (hostile) card is served.
func (a *Agent) CardURL() string { return a.base + "/.well-known/agent-card.json" }

// Bystander is the other origin the hostile card points at.
func (a *Agent) Bystander() *Bystander { return a.by }

// Written is how many response body bytes the agent managed to write (HugeBody, OneBytePerSecond, SSE).
func (a *Agent) Written() int64 { return a.written.Load() }

// Requests is how many HTTP requests the agent received.
func (a *Agent) Requests() int64 { return a.reqs.Load() }

// Roles maps every role a suite may ask for to the hostile card (documents and the suites' extra roles).
func (a *Agent) Roles() map[string]string {
	u := a.CardURL()
	return map[string]string{"": u, "terms": u, "interview": u, "schema-interface": u, "on-request": u, "agent-cards": u}
}

// Close stops the agent, releases every handler it holds open, and stops the Bystander.
func (a *Agent) Close() {
	a.once.Do(func() {
		close(a.done)
		_ = a.srv.Close()
		a.by.Close()
	})
}

// Bystander is a loopback listener that records every connection made to it and closes it at once.
type Bystander struct {
	ln    net.Listener
	mu    sync.Mutex
	peers []string
	wg    sync.WaitGroup
}

func startBystander() (*Bystander, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	b := &Bystander{ln: ln}
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			b.mu.Lock()
			b.peers = append(b.peers, c.RemoteAddr().String())
			b.mu.Unlock()
			c.Close()
		}
	}()
	return b, nil
}

// URL is the Bystander's origin, "http://127.0.0.1:PORT".
func (b *Bystander) URL() string { return "http://" + b.ln.Addr().String() }

// Connections lists the peers that connected, in order.
func (b *Bystander) Connections() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.peers...)
}

// Close stops listening.
func (b *Bystander) Close() {
	b.ln.Close()
	b.wg.Wait()
}

// Config is the target configuration a run against the agent needs: the worked example's arguments for the
// schema-interface suite (requests[skill]).
func (a *Agent) Config() target.Config {
	var req struct {
		Arguments json.RawMessage `json:"arguments"`
	}
	_ = json.Unmarshal(sfx.Example("request"), &req)
	return target.Config{Requests: map[string][]string{skillEvaluate: {string(req.Arguments)}}}
}

// Target is a URL target for the agent, every role mapped to its card, with cfg (whose Requests default to
// Config's).
func (a *Agent) Target(cfg target.Config) *target.Target {
	if cfg.Requests == nil {
		cfg.Requests = a.Config().Requests
	}
	return &target.Target{Kind: target.KindURL, Agents: a.Roles(), Config: cfg}
}

// Card returns a copy of the card bytes the agent serves whole (nil for behaviours that never serve a whole card:
// never-answers, one-byte-per-second and the redirects serve the plain card bytes only in part or not at all).
func (a *Agent) Card() []byte { return append([]byte(nil), a.card...) }
