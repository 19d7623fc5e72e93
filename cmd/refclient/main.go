// Command refclient is the harness's reference schema-interface client (harness/verify/skiface) behind the
// driver contract of `runsuite client`: it reads the scenario from the EXTCONF_* environment, runs the client
// procedure against EXTCONF_CARD_URL and prints one JSON line {"outcome","reason","output","report"}.
//
//	runsuite client --cmd "go run ./cmd/refclient"
//	runsuite client --cmd "refclient --ignore-digest"          # deliberately broken: trusts carried digests
//	runsuite client --cmd "refclient --sabotage si.client-no-activation-header"
//
// --sabotage takes the reference client's own toggles (`runsuite sabotage list`, side client); it exists so the
// certification of a client can be shown to fail a client that breaks a rule.
package main

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/clientcert"
	"github.com/extconf/extconf/harness/evidence"
	"github.com/extconf/extconf/harness/verify/skiface"
	vterms "github.com/extconf/extconf/harness/verify/terms"
	"github.com/extconf/extconf/sabotage"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
}

type report struct {
	Steps    []string `json:"steps,omitempty"`
	Local    bool     `json:"local,omitempty"`
	Step     string   `json:"step,omitempty"`
	Message  string   `json:"message,omitempty"`
	Sabotage []string `json:"sabotage,omitempty"`
}

func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("refclient", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sab := fs.String("sabotage", getenv("EXTCONF_REFCLIENT_SABOTAGE"), "comma-separated client-side toggles to switch on (a deliberately broken client)")
	ignoreDigest := fs.Bool("ignore-digest", false, "shorthand for --sabotage "+string(sabotage.SIClientSkipDocumentDigest)+": trust the carried interface digest without calculating it")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	ids := strings.Split(*sab, ",")
	if *ignoreDigest {
		ids = append(ids, string(sabotage.SIClientSkipDocumentDigest))
	}
	set, err := sabotage.Parse(ids...)
	if err != nil {
		fmt.Fprintln(stderr, "refclient:", err)
		return 2
	}
	reply := func(r clientcert.Reply) int {
		b, _ := json.Marshal(r)
		fmt.Fprintln(stdout, string(b))
		return 0
	}
	refuse := func(reason string, rep report) int {
		rep.Sabotage = set.IDs()
		b, _ := json.Marshal(rep)
		return reply(clientcert.Reply{Outcome: clientcert.OutcomeRefused, Reason: reason, Report: b})
	}
	action := getenv(clientcert.EnvAction)
	switch action {
	case clientcert.ActionVersion:
		v := evidence.Version
		if !set.Empty() {
			v += "+sabotage:" + strings.Join(set.IDs(), ",")
		}
		return reply(clientcert.Reply{Name: "extconf reference client (harness/verify/skiface, harness/verify/terms)", Version: v})
	case clientcert.ActionInvoke, clientcert.ActionVerifyTerms:
	default:
		return refuse("unsupported_action", report{Message: "this adapter speaks the invoke (schema-interface) and verify-terms (terms) actions; got " + strconv.Quote(action)})
	}
	timeout := 30 * time.Second
	if s, err := strconv.Atoi(getenv(clientcert.EnvTimeoutSecs)); err == nil && s > 1 {
		timeout = time.Duration(s-1) * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var roots *x509.CertPool
	if f := getenv(clientcert.EnvCAFile); f != "" {
		pem, err := os.ReadFile(f)
		if err != nil {
			fmt.Fprintln(stderr, "refclient:", err)
			return 2
		}
		roots = x509.NewCertPool()
		if !roots.AppendCertsFromPEM(pem) {
			fmt.Fprintln(stderr, "refclient: no certificate in", f)
			return 2
		}
	}
	c := a2a.NewClient(a2a.Options{RootCAs: roots})
	if h := getenv(clientcert.EnvAuthHeader); h != "" {
		c = c.WithHeader(h, getenv(clientcert.EnvAuthValue))
	}
	if action == clientcert.ActionVerifyTerms {
		return verifyTerms(ctx, c, getenv(clientcert.EnvCardURL), set, reply)
	}
	args0 := json.RawMessage(getenv(clientcert.EnvArguments))
	if len(args0) == 0 {
		args0 = json.RawMessage(`{}`)
	}
	if !json.Valid(args0) {
		return refuse("input_invalid", report{Message: clientcert.EnvArguments + " is not JSON", Local: true})
	}
	cl := &skiface.Client{A2A: c, Sabotage: set, Fetch: func(context.Context, string) ([]byte, error) {
		return nil, errors.New("refclient: schema retrieval refused")
	}}
	res, err := cl.Invoke(ctx, skiface.Request{CardURL: getenv(clientcert.EnvCardURL), SkillID: getenv(clientcert.EnvSkill), Arguments: args0})
	rep := report{}
	if res != nil {
		for _, s := range res.Steps {
			mark := "ok"
			if !s.OK {
				mark = "stopped"
			}
			rep.Steps = append(rep.Steps, s.Name+": "+mark)
		}
	}
	if err != nil {
		if res == nil {
			res = &skiface.Result{}
		}
		var se *skiface.Error
		code := "error"
		if errors.As(err, &se) {
			code, rep.Step = se.Code, se.Step
			if code == "" {
				code = "error" // a sabotaged client that drops the code: prose only
			}
		}
		rep.Message = err.Error()
		if res != nil {
			rep.Local = res.Local
		}
		rep.Sabotage = set.IDs()
		b, _ := json.Marshal(rep)
		// An output the client would still hand its caller is reported, refusal or not: the contract grades it.
		return reply(clientcert.Reply{Outcome: clientcert.OutcomeRefused, Reason: code, Output: res.Output, Report: b})
	}
	rep.Sabotage = set.IDs()
	b, _ := json.Marshal(rep)
	return reply(clientcert.Reply{Outcome: clientcert.OutcomeCompleted, Output: res.Output, Report: b})
}

// verifyTerms runs the reference terms consumer (harness/verify/terms) over the card: the entries whose digest
// and provider signature verify are the agent's terms; none means terms not stated.
func verifyTerms(ctx context.Context, c *a2a.Client, cardURL string, set sabotage.Set, reply func(clientcert.Reply) int) int {
	card, _, err := c.FetchCard(ctx, cardURL, a2a.Call{Note: "refclient: the card"})
	if err != nil {
		b, _ := json.Marshal(report{Message: err.Error(), Sabotage: set.IDs()})
		return reply(clientcert.Reply{Outcome: clientcert.OutcomeRefused, Reason: "error", Report: b})
	}
	o := vterms.Card(ctx, c, card, set)
	var ds []string
	for _, p := range o.Proposals {
		ds = append(ds, p.Entry.Digest)
	}
	b, _ := json.Marshal(map[string]any{"view": o.View, "signals": o.Signals, "sabotage": set.IDs()})
	if len(ds) == 0 {
		return reply(clientcert.Reply{Outcome: clientcert.OutcomeRefused, Reason: "terms_not_stated", Report: b})
	}
	return reply(clientcert.Reply{Outcome: clientcert.OutcomeCompleted, Verified: ds, Report: b})
}
