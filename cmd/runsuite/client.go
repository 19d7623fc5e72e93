package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/extconf/extconf/certify"
	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/harness/clientcert"
	"github.com/extconf/extconf/harness/evidence"
)

const clientUsage = `runsuite client --cmd CMD [--suite LIST] [--json FILE] [--timeout D] [--dir DIR] [--list]
                [--ports PORT[,PORT]] [--print-schema] [--out DIR] [--force] [--as NAME] [--tier self|third-party]
                [--sign-key FILE]

Certify a client: the reference agents play its counterpart (clean, and per scenario with one agent-side sabotage
toggle on, or the stand-in the self-check meets for the row), a recording proxy stands in front of them, and CMD
(run with sh -c) is started once per scenario under the driver contract (docs/client-driver.md): the
scenario in EXTCONF_* variables (actions invoke, delegate, verify-terms, interview, relay), one JSON line on stdout.
The client rows (catalog witness reference-client) are graded on what the client sent and on what it did after a
sabotaged answer; rows no scenario reaches read not-tested with the reason, never pass. A client that lists the
actions it implements in its version reply is not run on the others: their rows read inapplicable with the reason.

  runsuite client --cmd "go run ./cmd/refclient"                 the harness's reference client, certified
  runsuite client --cmd "refclient --ignore-digest" --json r.json  a deliberately broken one (fails SI-2.2b, SI-9.22, …)
  runsuite client --list                                          the scenarios and the rows each grades
  runsuite client --print-schema > skill-interface-v1.json        the Skill Interface Schema to validate documents with

The contract, with a worked exchange per action: docs/client-contract.md.

The bundle (evidence/runs/<time>/ or --out) has target.kind "client" and target.client (command, name, version,
scenarios, the scope rows and their status); every client row is about the client under test (selfCheck false),
every other row skipped; the transcript holds what the client sent (credentials redacted). runsuite verify checks
it like any bundle. Its status counts every client row of the actions the client implements (not-tested ones make
it incomplete; inapplicable ones do not); target.client.scopeStatus counts the rows the scenarios grade, and the
exit status is the worse of the two.

Exit status: 0 every row a scenario grades passed and no requirement (MUST) row of an action the client implements
reads not-tested; 1 a graded row failed (executed-fail); 4 incomplete: none failed but a graded row is blocked or
unasserted, a MUST row reads not-tested (the table names what to declare or give for each), or nothing was graded;
2 usage error; 3 harness defect (the bundle just written does not verify).
`

var clientCommand = command{
	name:     "client",
	short:    "certify a client: the reference agents as its counterpart, the client rows graded",
	synopsis: []string{"client --cmd CMD [--suite LIST] [--json FILE] [--timeout D] [--dir DIR] [--list] [--ports P[,P]] [--print-schema] [--out DIR] [--force] [--as NAME] [--tier T] [--sign-key FILE]"},
	long:     strings.TrimSpace(clientUsage[strings.Index(clientUsage, "\n\n")+2:]),
	examples: []string{"# the harness's reference client, certified through the driver contract", `runsuite client --cmd "go run ./cmd/refclient"`,
		"# a deliberately broken one (fails SI-2.2b, SI-9.22, …)", `runsuite client --cmd "refclient --ignore-digest" --json r.json`,
		"# the scenarios and the rows each grades", "runsuite client --list"},
	run: cmdClient,
}

func cmdClient(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlags("client")
	cmdFlag := fs.String("cmd", "", "the client under test: a shell command speaking the driver contract")
	suiteFlag := fs.String("suite", "", "documents whose client rows to report, comma separated (default: all)")
	jsonFlag := fs.String("json", "", "write the results (client identity, scenarios, transcripts, row verdicts) here")
	timeoutFlag := fs.Duration("timeout", 60*time.Second, "per scenario: how long the client may take")
	dirFlag := fs.String("dir", "", "working directory of the client command (default: the current one)")
	listFlag := fs.Bool("list", false, "list the scenarios and the rows each grades, then exit")
	outFlag := fs.String("out", "", "bundle directory (default evidence/runs/<time>)")
	forceFlag := fs.Bool("force", false, "overwrite a bundle already in --out")
	asFlag := fs.String("as", "", "who runs the harness")
	tierFlag := fs.String("tier", "self", "self (a claim) or third-party (evidence, must be signed)")
	keyFlag := fs.String("sign-key", "", "private JWK (Ed25519 or P-256) to sign the bundle with")
	portsFlag := fs.String("ports", "", "PORT[,PORT]: the loopback ports of the recording proxy and of the second (downstream) proxy (default: any free one)")
	schemaFlag := fs.Bool("print-schema", false, "print the Skill Interface Schema 1.0 the certification validates with (its pinned JCS SHA-256 digest on stderr), then exit")
	if err := parseNoArgs(fs, args); err != nil {
		return exitUsage, err
	}
	if *schemaFlag {
		b, digest := certify.SkillInterfaceSchema()
		fmt.Fprintf(stderr, "Skill Interface Schema 1.0, %s (JCS SHA-256)\n", digest)
		_, err := stdout.Write(b)
		return exitPass, err
	}
	ports, err := parsePorts(*portsFlag)
	if err != nil {
		return exitUsage, usageError{err}
	}
	if err := checkOut(*outFlag, *forceFlag); err != nil {
		return exitUsage, err
	}
	st, err := standingFlags(*asFlag, *tierFlag, *keyFlag)
	if err != nil {
		return exitUsage, err
	}
	docs := splitList(*suiteFlag)
	for _, d := range docs {
		if _, ok := catalog.DocumentByID(d); !ok {
			return exitUsage, usageError{fmt.Errorf("unknown document %q", d)}
		}
	}
	if *listFlag {
		fmt.Fprint(stdout, certify.Describe(certify.Scenarios()))
		return exitPass, nil
	}
	if *cmdFlag == "" {
		return exitUsage, usageError{fmt.Errorf("--cmd is required (see runsuite client -h)")}
	}
	cat, err := catalog.Load()
	if err != nil {
		return exitHarness, err
	}
	tmp, err := os.MkdirTemp("", "extconf-client-")
	if err != nil {
		return exitHarness, err
	}
	defer os.RemoveAll(tmp)
	o, err := certify.Options(cat, clientcert.Driver{Command: *cmdFlag, Dir: *dirFlag, Timeout: *timeoutFlag}, tmp, docs...)
	if err != nil {
		return exitHarness, err
	}
	o.Progress = stderr
	o.ProxyPorts = ports
	res, err := clientcert.Run(ctx, o)
	if err != nil {
		return exitHarness, err
	}
	if *jsonFlag != "" {
		b, err := json.MarshalIndent(res, "", "  ")
		if err != nil {
			return exitHarness, err
		}
		if err := os.WriteFile(*jsonFlag, b, 0o644); err != nil {
			return writeFailed(err)
		}
	}
	b, transcript := clientcert.Bundle(res, cat, docs, st.runner)
	if st.key != nil {
		if err := evidence.Sign(b, st.key); err != nil {
			return exitHarness, fmt.Errorf("signing: %w", err)
		}
	}
	dir := *outFlag
	if dir == "" {
		if dir, err = runDir(); err != nil {
			return exitHarness, err
		}
	}
	path, err := evidence.WriteDir(dir, b, transcript)
	if err != nil {
		return writeFailed(err)
	}
	clientcert.WriteTable(stdout, res)
	fmt.Fprintf(stdout, "bundle: %s (%s; status %s over every client row, scope %s)\n", path, b.Kind, b.Status, res.ScopeStatus)
	rep, err := verifyWritten(path, nil)
	if err != nil {
		return exitHarness, fmt.Errorf("HARNESS DEFECT: the bundle just written cannot be verified: %w", err)
	}
	for _, p := range rep.Problems() {
		if !strings.HasPrefix(p, "catalog: ") {
			fmt.Fprintf(stderr, "runsuite: HARNESS DEFECT: the bundle just written does not verify: %s\n", p)
			return exitHarness, nil
		}
	}
	if ctx.Err() != nil {
		return exitInterrupted, nil
	}
	return clientExit(res.Status, b.Status), nil
}

// parsePorts reads --ports: up to two loopback ports (the recording proxy's, the downstream proxy's).
func parsePorts(v string) ([2]int, error) {
	var out [2]int
	if v == "" {
		return out, nil
	}
	parts := strings.Split(v, ",")
	if len(parts) > 2 {
		return out, fmt.Errorf("--ports takes one or two ports, got %q", v)
	}
	for i, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 1 || n > 65535 {
			return out, fmt.Errorf("--ports: %q is not a port (1-65535)", p)
		}
		out[i] = n
	}
	if out[0] == out[1] {
		return out, fmt.Errorf("--ports: the two proxies need two ports, got %d twice", out[0])
	}
	return out, nil
}

// clientExit maps the certification's status and its bundle's to the exit status: a failed row fails it, both
// passed pass it, anything else (blocked, unasserted, a MUST row not tested, nothing graded) is incomplete.
func clientExit(statuses ...string) int {
	passed := true
	for _, s := range statuses {
		if s == harness.StatusFailed {
			return exitFail
		}
		passed = passed && s == harness.StatusPassed
	}
	if passed {
		return exitPass
	}
	return exitIncomplete
}
