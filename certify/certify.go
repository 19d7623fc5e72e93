package certify

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	termsfix "github.com/extconf/extconf/fixtures/terms"
	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness/catalog"
	cc "github.com/extconf/extconf/harness/clientcert"
	"github.com/extconf/extconf/mockagents"
	vinterview "github.com/extconf/extconf/refclients/interview"
	"github.com/extconf/extconf/sabotage"
	sic "github.com/extconf/extconf/suites/schemaifaceclient"
)

// Scenarios are every document's client scenarios.
func Scenarios() []cc.Scenario {
	var out []cc.Scenario
	for _, l := range [][]cc.Scenario{SchemaInterface(), SILimits(), SIHooks(), SIBase(), SIRetrieval(), SITwoTargets(), Delegate(), Terms(), Interview(), OnRequest()} {
		out = append(out, l...)
	}
	return out
}

// Actions maps each document to the contract action its client rows belong to.
var Actions = map[string]string{siDoc: cc.ActionInvoke, "terms": cc.ActionVerifyTerms, ivDoc: cc.ActionInterview, orDoc: cc.ActionRelay}

// Start starts the reference agent of role's document with toggles on; the contract's credentials are principal
// A's.
func Start(_ context.Context, role string, toggles []string) (*cc.Counterpart, error) {
	if set, ok := strings.CutPrefix(role, TermsFixtureRole); ok {
		if len(toggles) > 0 {
			return nil, fmt.Errorf("the terms fixtures take no toggles")
		}
		fx, err := termsfix.Start()
		if err != nil {
			return nil, err
		}
		return &cc.Counterpart{CardURL: fx.CardURL(set), Close: fx.Close}, nil
	}
	if role == SIStandinRole+siWatchedStandin {
		u, watched, closeFn, err := sic.StartWatchedStandin()
		if err != nil {
			return nil, err
		}
		return &cc.Counterpart{CardURL: u, Close: closeFn, Watched: watched}, nil
	}
	if name, ok := strings.CutPrefix(role, SIStandinRole); ok {
		if len(toggles) > 0 {
			return nil, fmt.Errorf("the schema-interface stand-ins take no toggles")
		}
		u, closeFn, err := sic.StartStandin(name)
		if err != nil {
			return nil, err
		}
		return &cc.Counterpart{CardURL: u, Close: closeFn}, nil
	}
	set, err := sabotage.Parse(toggles...)
	if err != nil {
		return nil, err
	}
	var resign func(upstream, rewritten []byte, origin string) []byte
	answers := false
	switch role {
	case ivRole:
		resign, answers = resignCard(""), true
	case ivAbsentRole:
		role, resign, answers = ivRole, resignCard(vinterview.URI), true
	}
	t, err := mockagents.Start(set, role)
	if err != nil {
		return nil, err
	}
	u, ok := t.Agents[role]
	if !ok {
		_ = t.Close()
		return nil, fmt.Errorf("no reference agent plays role %s", role)
	}
	env := map[string]string{}
	if p, ok := t.Config.Principals["A"]; ok && p.Header != "" {
		env[cc.EnvAuthHeader], env[cc.EnvAuthValue] = p.Header, p.Value
	}
	return &cc.Counterpart{CardURL: u, Env: env, Close: func() { _ = t.Close() }, Resign: resign, RewriteAnswers: answers}, nil
}

// Rows are the client-subject rows of docs (all documents when empty): the rows the catalog witnesses with the
// reference client.
func Rows(cat *catalog.Catalog, docs ...string) []catalog.Row {
	return cat.Filter(func(r catalog.Row) bool {
		if !r.SelfCheck() {
			return false
		}
		if len(docs) == 0 {
			return true
		}
		for _, d := range docs {
			if d == r.Document {
				return true
			}
		}
		return false
	})
}

// Options builds the engine's options for a client command: the scenarios of docs, the test PKI for the proxy
// (its CA written to a file in dir for the client), the reference agents as counterpart.
func Options(cat *catalog.Catalog, driver cc.Driver, dir string, docs ...string) (cc.Options, error) {
	cert, err := testpki.IssueLeaf()
	if err != nil {
		return cc.Options{}, err
	}
	caFile := filepath.Join(dir, "extconf-test-ca.pem")
	if err := os.WriteFile(caFile, testpki.CACertPEM(), 0o644); err != nil {
		return cc.Options{}, err
	}
	var scs []cc.Scenario
	for _, s := range Scenarios() {
		if len(docs) == 0 || contains(docs, s.Document) {
			scs = append(scs, s)
		}
	}
	rows, un := Rows(cat, docs...), Unreached()
	for _, r := range rows {
		if u, ok := un[r.ID]; ok && u.Action == "" {
			u.Action = Actions[r.Document]
			un[r.ID] = u
		}
	}
	return cc.Options{Driver: driver, Start: Start, Scenarios: scs, Rows: rows, Unreached: un,
		ProxyCert: cert, ProxyCAs: testpki.CAPool(), CAFile: caFile}, nil
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// Unreached says why each client row no scenario grades reads what it reads. None of them is a pass. Every client
// row is reached by a scenario today (the rows whose mechanism lives inside the client through the contract's
// optional hooks: hooks.go); a row added to the catalog before its scenario is listed here with its reason.
func Unreached() map[string]cc.Unreached {
	return map[string]cc.Unreached{}
}

// Describe lists the scenarios for `runsuite client --list`.
func Describe(scs []cc.Scenario) string {
	var b strings.Builder
	for _, s := range scs {
		rows := map[string]bool{}
		var ids []string
		for _, c := range s.Checks {
			for _, r := range c.Rows {
				if !rows[r] {
					rows[r] = true
					ids = append(ids, r)
				}
			}
		}
		counterpart := s.Role
		if s.Downstream != "" {
			counterpart += " → " + s.Downstream
		}
		if len(s.Toggles) > 0 {
			counterpart += " toggles=" + strings.Join(s.Toggles, ",")
		}
		fmt.Fprintf(&b, "%-36s %-12s %s\n    %s\n    rows: %s\n", s.ID, s.Action, counterpart, s.Description, strings.Join(ids, " "))
	}
	return b.String()
}
