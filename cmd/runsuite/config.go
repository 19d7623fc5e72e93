package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/catalog"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/suites"
)

// loadConfig reads a target configuration, warns on stderr about members in their pre-#22 places (they keep
// working for one release) and decodes the documents' sections strictly (harness.PrepareConfig).
func loadConfig(path string, stderr io.Writer) (target.Config, error) {
	cfg, err := target.LoadConfig(path)
	if err != nil {
		return cfg, err
	}
	for _, w := range target.LegacyWarnings(cfg) {
		fmt.Fprintf(stderr, "runsuite: warning: target config %s: %s\n", path, w)
	}
	if err := harness.PrepareConfig(&cfg, suites.Documents()...); err != nil {
		return cfg, fmt.Errorf("target config %s: %w", path, err)
	}
	return cfg, nil
}

var configCommand = command{
	name:     "config",
	short:    "derive a target configuration (init) and predict which rows it leaves blocked (check)",
	synopsis: []string{"config init --target URL [--config BASE] [--suite LIST] [--out FILE]", "config check FILE [--target URL] [--suite LIST]"},
	long: `init probes the target and writes one typed section per document it declares, with what it could derive;
the inputs still missing are listed on stderr with the rows they unblock. check lists, without running a spec,
the rows the file leaves blocked (by member), the rows declared absent, and unused sections and credentials.
For schema-interface, init and check (with --target) probe the agent as its principals A and B the way a run
does (side-effect-free skills only) and count what that derives as given; init writes it into the file.
Both say "give caFile" when a card is served from an authority the configuration does not trust, and "give
trustedKeys" when a card's signature names a key off the card's origin. Any member of a document's input table
can be declared absent ("absent": {"<member>": "<why>"}); docs/config/<document>.md lists them.`,
	examples: []string{"# a skeleton for an agent", "runsuite config init --target https://agent.example --out target.json",
		"# what a run with it would leave blocked", "runsuite config check target.json --target https://agent.example"},
	run: cmdConfig,
}

// cmdConfig dispatches "runsuite config init|check".
func cmdConfig(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		// The registry prints the command's help (usage, examples) and exits 0.
		return exitPass, helpRequested{newFlags("config")}
	}
	switch args[0] {
	case "init":
		return cmdConfigInit(ctx, args[1:], stdout, stderr)
	case "check":
		return cmdConfigCheck(ctx, args[1:], stdout, stderr)
	}
	return exitUsage, usageError{fmt.Errorf("unknown config command %q (want init or check)", args[0])}
}

// probe is what the target's cards show: per document, its card (nil when unreadable) and whether it declares it.
type probe struct {
	cards     map[string]*a2a.AgentCard
	urls      map[string]string
	declared  map[string]bool
	notes     []string
	client    *a2a.Client
	raws      map[string][]byte // document → its card as served
	fetchErrs []fetchErr
	// dead is why the run would block every row before any spec (no card URL answers): what the operator gives
	// first (caFile, a reachable URL); nothing else can be predicted or derived until then.
	dead string
}

type fetchErr struct {
	url string
	err error
}

func probeTarget(ctx context.Context, tgtURL string, cfg target.Config, docs []string) (*probe, error) {
	tgt, err := target.URL(tgtURL, cfg)
	if err != nil {
		return nil, usageError{err}
	}
	limits, err := harness.LimitsOf(cfg)
	if err != nil {
		return nil, usageError{err}
	}
	var ss []harness.Suite
	for _, s := range suites.All() {
		if slices.Contains(docs, s.Document) {
			ss = append(ss, s)
		}
	}
	// The run's reach rule: a card's interface URL (where the derivation POSTs as principal A) is followed only on
	// the target's origins, never to this host for a remote target, checked again on the dialled address.
	lim := a2a.DefaultLimits()
	if limits != nil {
		lim = *limits
	}
	cl := harness.NewClient(harness.ReachOf(tgt, ss), a2a.Options{Limits: lim, RootCAs: tgt.RootCAs})
	p := &probe{cards: map[string]*a2a.AgentCard{}, urls: map[string]string{}, declared: map[string]bool{}, client: cl, raws: map[string][]byte{}}
	app, err := harness.Applicability(ctx, tgt, ss, limits)
	if err != nil {
		return nil, err
	}
	fetched := map[string]*a2a.AgentCard{}
	raws := map[string][]byte{}
	for _, d := range docs {
		u, _ := tgt.CardURL(d)
		p.urls[d] = u
		if a := app[d]; a.OK {
			p.declared[d] = true
		} else {
			p.notes = append(p.notes, fmt.Sprintf("%s: not applicable: %s", d, a.Reason))
		}
		card, ok := fetched[u]
		if !ok {
			c, ex, err := cl.FetchCard(ctx, u, a2a.Call{Note: "config: card for " + d})
			if err != nil {
				p.notes = append(p.notes, fmt.Sprintf("%s: the card at %s cannot be read: %v (%s)", d, u, err, ex.Summary()))
				p.fetchErrs = append(p.fetchErrs, fetchErr{u, err})
			}
			fetched[u], card = c, c
			if ex != nil && c != nil {
				raws[u] = ex.ResponseBody
			}
		}
		p.cards[d] = card
		p.raws[d] = raws[u]
	}
	if len(p.fetchErrs) > 0 && len(p.fetchErrs) == len(fetched) {
		// No card could be read: the run decides whether the target answers at all, and so does the prediction.
		if p.dead, err = harness.Unanswered(ctx, tgt, ss, limits); err != nil {
			return nil, err
		}
		if p.dead != "" {
			p.notes = append(p.notes, "every row is blocked until the target answers: "+p.dead)
		}
	}
	return p, nil
}

func selectedDocs(list string) ([]string, error) {
	var docs []string
	for _, d := range suites.Documents() {
		docs = append(docs, d.ID())
	}
	if list == "" {
		return docs, nil
	}
	sel := splitList(list)
	for _, d := range sel {
		if _, ok := catalog.DocumentByID(d); !ok {
			return nil, usageError{fmt.Errorf("--suite: unknown document %q", d)}
		}
	}
	return sel, nil
}

func cmdConfigInit(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlags("config init")
	tgtFlag := fs.String("target", "", "the URL of the agent (its origin or card URL)")
	baseFlag := fs.String("config", "", "a configuration to start from (credentials, caFile, agents)")
	suiteFlag := fs.String("suite", "", "documents to configure, comma separated (default: all)")
	outFlag := fs.String("out", "", "write the configuration here (default: stdout)")
	if err := parseNoArgs(fs, args); err != nil {
		return exitUsage, err
	}
	if *tgtFlag == "" {
		return exitUsage, usageError{errors.New("--target URL is required")}
	}
	docs, err := selectedDocs(*suiteFlag)
	if err != nil {
		return exitUsage, err
	}
	var base target.Config
	var raw map[string]json.RawMessage
	if *baseFlag != "" {
		if base, err = loadConfig(*baseFlag, stderr); err != nil {
			return exitUsage, usageError{err}
		}
		b, _ := os.ReadFile(*baseFlag)
		_ = json.Unmarshal(b, &raw)
	}
	p, err := probeTarget(ctx, *tgtFlag, base, docs)
	if err != nil {
		return exitUsage, err
	}
	for _, n := range p.notes {
		fmt.Fprintf(stderr, "runsuite config: %s\n", n)
	}
	out := map[string]any{}
	for k, v := range raw {
		if k != "documents" {
			out[k] = v // the base's common members and credentials, as written
		}
	}
	sections := map[string]map[string]any{}
	var baseDocs map[string]map[string]any
	if d, ok := raw["documents"]; ok {
		_ = json.Unmarshal(d, &baseDocs)
	}
	for _, d := range docs {
		if !p.declared[d] {
			continue // probeTarget's note says why
		}
		sec := baseDocs[d]
		if sec == nil {
			sec = map[string]any{}
		}
		sections[d] = sec
	}
	targetNeeds := deriveSections(ctx, p, base, sections, stderr)
	out["documents"] = sections
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return exitFail, err
	}
	b = append(b, '\n')
	// What remains: every Needs row the skeleton leaves blocked, by member (stderr: the file stays plain JSON).
	secRaw := map[string]json.RawMessage{}
	for d, s := range sections {
		secRaw[d], _ = json.Marshal(s)
	}
	var declared []harness.Document
	for _, d := range suites.Documents() {
		if sections[d.ID()] != nil {
			declared = append(declared, d)
		}
	}
	printPredictions(stderr, "still to give",
		harness.WithTargetNeeds(harness.PredictConfig(base, secRaw, declared...), targetNeeds, secRaw))
	for _, a := range trustAsks(ctx, p, base) {
		fmt.Fprintf(stderr, "  give         %s\n", a)
	}
	if *outFlag == "" {
		// stdout is a terminal or a CI log: credential values the base holds in plain are printed as
		// {"fromEnv": VAR} instead (--out writes the file, mode 0600, as the base has it).
		if clean, vars := withoutPlainSecrets(out); len(vars) > 0 {
			if b, err = json.MarshalIndent(clean, "", "  "); err != nil {
				return exitFail, err
			}
			b = append(b, '\n')
			fmt.Fprintf(stderr, "runsuite config: credential values are not printed: set %s in the environment (or use --out FILE)\n", strings.Join(vars, ", "))
		}
		_, err = stdout.Write(b)
		return exitPass, err
	}
	if err := os.WriteFile(*outFlag, b, 0o600); err != nil {
		return exitFail, err
	}
	fmt.Fprintf(stderr, "runsuite config: wrote %s\n", *outFlag)
	return exitPass, nil
}

func printPredictions(w io.Writer, title string, preds []harness.RowPrediction) (blocked int) {
	type group struct {
		verdict, member, why string
		rows                 []string
		always               bool
		doc                  string
	}
	var groups []*group
	idx := map[string]*group{}
	for _, p := range preds {
		k := p.Verdict + "\x00" + p.Member
		g := idx[k]
		if g == nil {
			g = &group{verdict: p.Verdict, member: p.Member, why: p.Why, always: p.Always, doc: p.Document}
			idx[k] = g
			groups = append(groups, g)
		}
		g.rows = append(g.rows, p.Row)
		if p.Verdict == harness.Blocked {
			blocked++
		}
	}
	fmt.Fprintf(w, "%s: %d rows blocked\n", title, blocked)
	for _, g := range groups {
		fmt.Fprintf(w, "  %-12s %s (%s): %s\n", g.verdict, g.member, g.why, strings.Join(g.rows, " "))
		if g.verdict == harness.Blocked && !g.always {
			// The declaration's exact place: a member is declared absent by its name in the input table.
			m := strings.TrimPrefix(g.member, "documents."+g.doc+".")
			fmt.Fprintf(w, "  %-12s or declare it absent: \"absent\": {%q: \"<why>\"} in documents.%s\n", "", m, g.doc)
		}
	}
	return blocked
}

func cmdConfigCheck(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlags("config check")
	tgtFlag := fs.String("target", "", "the URL of the agent: only documents its cards declare are predicted")
	suiteFlag := fs.String("suite", "", "documents to check, comma separated (default: all)")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return exitUsage, err
	}
	if len(rest) != 1 {
		return exitUsage, usageError{errors.New("want exactly one FILE")}
	}
	docs, err := selectedDocs(*suiteFlag)
	if err != nil {
		return exitUsage, err
	}
	cfg, err := loadConfig(rest[0], stderr)
	if err != nil {
		return exitUsage, usageError{err}
	}
	if err := harness.CheckConfig(cfg, suites.Documents()...); err != nil {
		return exitUsage, usageError{fmt.Errorf("target config %s: %w", rest[0], err)}
	}
	declared := map[string]bool{}
	for _, d := range docs {
		declared[d] = true
	}
	var probed *probe
	if *tgtFlag != "" {
		p, err := probeTarget(ctx, *tgtFlag, cfg, docs)
		if err != nil {
			return exitUsage, err
		}
		for _, n := range p.notes {
			fmt.Fprintf(stderr, "runsuite config: %s\n", n)
		}
		declared, probed = p.declared, p
	}
	var run []harness.Document
	for _, d := range suites.Documents() {
		if declared[d.ID()] {
			run = append(run, d)
		}
	}
	secs := cfg.Documents
	var targetNeeds map[string][]harness.Need
	if *tgtFlag != "" {
		// The run derives what probing shows (harness.SectionDeriver); so does the prediction.
		derived := map[string]map[string]any{}
		for _, d := range run {
			if _, ok := d.(harness.SectionDeriver); ok {
				var sec map[string]any
				if json.Unmarshal(cfg.Documents[d.ID()], &sec) != nil || sec == nil {
					sec = map[string]any{}
				}
				derived[d.ID()] = sec
			}
		}
		targetNeeds = deriveSections(ctx, probed, cfg, derived, stderr)
		secs = maps.Clone(cfg.Documents)
		if secs == nil {
			secs = map[string]json.RawMessage{}
		}
		for id, sec := range derived {
			secs[id], _ = json.Marshal(sec)
		}
	}
	preds := harness.WithTargetNeeds(harness.PredictConfig(cfg, secs, run...), targetNeeds, secs)
	if probed != nil && probed.dead != "" {
		preds = deadPredictions(docs, probed.dead)
	}
	blocked := printPredictions(stdout, "predicted", preds)
	for _, u := range unused(cfg, declared) {
		fmt.Fprintf(stdout, "  unused       %s\n", u)
	}
	if probed != nil {
		asks := trustAsks(ctx, probed, cfg)
		for _, a := range asks {
			fmt.Fprintf(stdout, "  give         %s\n", a)
		}
		blocked += len(asks)
	}
	if blocked > 0 {
		return exitFail, nil
	}
	return exitPass, nil
}

// unused lists sections of documents the target does not declare (or the selection leaves out) and credentials
// no section names.
func unused(cfg target.Config, declared map[string]bool) []string {
	var out []string
	named := map[string]bool{}
	for id, raw := range cfg.Documents {
		if !declared[id] {
			out = append(out, "$.documents."+id+" (the target does not declare "+id+" or it is not selected)")
			continue
		}
		var v any
		_ = json.Unmarshal(raw, &v)
		collectStrings(v, named)
	}
	for name := range cfg.Credentials {
		if !named[name] {
			out = append(out, "$.credentials."+name+" (no document section names it)")
		}
	}
	sort.Strings(out)
	return out
}

func collectStrings(v any, into map[string]bool) {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			collectStrings(e, into)
		}
	case map[string]any:
		for k, e := range x {
			if k == "principals" || k == "principal" {
				allStrings(e, into)
			} else {
				collectStrings(e, into)
			}
		}
	}
}

func allStrings(v any, into map[string]bool) {
	switch x := v.(type) {
	case string:
		into[x] = true
	case []any:
		for _, e := range x {
			allStrings(e, into)
		}
	case map[string]any:
		for _, e := range x {
			allStrings(e, into)
		}
	}
}

// withoutPlainSecrets returns out with every plain credential value (credentials.<name>.value,
// principals.<name>.value) replaced by {"fromEnv": "EXTCONF_<NAME>"}, and the variables it named.
func withoutPlainSecrets(out map[string]any) (map[string]any, []string) {
	clean := maps.Clone(out)
	var vars []string
	for _, member := range []string{"credentials", "principals"} {
		raw, ok := out[member].(json.RawMessage)
		if !ok {
			continue
		}
		var m map[string]map[string]any
		if json.Unmarshal(raw, &m) != nil {
			continue
		}
		for _, name := range slices.Sorted(maps.Keys(m)) {
			if v, ok := m[name]["value"].(string); ok && v != "" {
				env := "EXTCONF_" + strings.ToUpper(strings.Map(func(r rune) rune {
					if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
						return r
					}
					return '_'
				}, name))
				m[name]["value"] = map[string]string{"fromEnv": env}
				vars = append(vars, env)
			}
		}
		clean[member] = m
	}
	return clean, vars
}

// deadPredictions is the run against a target that answers nothing: every selected row about the target blocked on
// that one cause (the self-checks run on the harness's own counterparts whatever the target is).
func deadPredictions(docs []string, why string) []harness.RowPrediction {
	var out []harness.RowPrediction
	for _, r := range catalog.MustLoad().Rows {
		if slices.Contains(docs, r.Document) && r.Witnessable() && !r.SelfCheck() {
			out = append(out, harness.RowPrediction{Document: r.Document, Row: r.ID, Verdict: harness.Blocked,
				Member: "target", Why: why, Always: true})
		}
	}
	return out
}
