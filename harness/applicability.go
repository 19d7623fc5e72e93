package harness

import (
	"context"
	"fmt"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/harness/target"
)

// Applicability decides, without running a spec, whether tgt declares each document of the given suites (the same
// rule a run applies: the suite's own Applicable, else the card of the document's role declares its extension
// URI). It returns, per document id, whether it applies and why not. runsuite config uses it to predict.
func Applicability(ctx context.Context, tgt *target.Target, suites []Suite, limits *a2a.Limits) (map[string]Applies, error) {
	env, err := probeEnv(ctx, tgt, suites, limits)
	if err != nil {
		return nil, err
	}
	out := map[string]Applies{}
	for doc, s := range env.suites {
		if s.Applicable != nil {
			ok, why := s.Applicable(ctx, env)
			out[doc] = Applies{ok, why}
			continue
		}
		d, _ := catalog.DocumentByID(doc)
		u, ok := tgt.CardURL(doc)
		if !ok {
			out[doc] = Applies{false, "the target has no agent for " + doc}
			continue
		}
		card, _, ex, err := env.fetchCard(ctx, u, doc)
		if err != nil {
			out[doc] = Applies{OK: true} // a run fails the rows on the fetch: they are not inapplicable
			continue
		}
		out[doc] = Applies{OK: true}
		if _, ok := card.Extension(d.URI); !ok {
			out[doc] = Applies{false, fmt.Sprintf("the card at %s (%s) does not declare %s in capabilities.extensions", u, ex.ID, d.URI)}
		}
	}
	return out, nil
}

// Applies is one document's applicability.
type Applies struct {
	OK     bool
	Reason string
}

// RoleCard fetches the card of role once per run (the fetch every spec and the applicability rule share), for a
// suite's own Applicable. ok is false when the target has no agent for role.
func (e *Env) RoleCard(ctx context.Context, role string) (card *a2a.AgentCard, raw []byte, ex *a2a.Exchange, ok bool, err error) {
	u, ok := e.Target.CardURL(role)
	if !ok {
		return nil, nil, nil, false, nil
	}
	card, raw, ex, err = e.fetchCard(ctx, u, role)
	return card, raw, ex, true, err
}

// probeEnv is the environment a probe before the run reads the target through: the run's reach rule and client,
// with limits (nil: the defaults).
func probeEnv(ctx context.Context, tgt *target.Target, suites []Suite, limits *a2a.Limits) (*Env, error) {
	cat, err := catalog.Load()
	if err != nil {
		return nil, err
	}
	lim := a2a.DefaultLimits()
	if limits != nil {
		lim = *limits
	}
	rch := newReach(tgt, suites)
	client := NewClient(rch, a2a.Options{Limits: lim, RootCAs: tgt.RootCAs})
	env := &Env{Target: tgt, Catalog: cat, Client: client, cards: map[string]*cardFetch{},
		applicable: map[string]*applicability{}, suites: map[string]Suite{}, reach: rch, runCtx: ctx}
	for _, s := range suites {
		if prev, ok := env.suites[s.Document]; !ok || prev.Applicable == nil {
			env.suites[s.Document] = s
		}
	}
	return env, nil
}

// Unanswered is the reason a run against tgt blocks every row before any spec (no card URL answered, or the
// reach rule refuses them), as the run decides it; "" when something answered. config check predicts from it.
func Unanswered(ctx context.Context, tgt *target.Target, suites []Suite, limits *a2a.Limits) (string, error) {
	if tgt.Blocked != "" {
		return tgt.Blocked, nil
	}
	env, err := probeEnv(ctx, tgt, suites, limits)
	if err != nil {
		return "", err
	}
	return env.unreachable(ctx), nil
}
