package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"

	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/mockagents"
	"github.com/extconf/extconf/sabotage"
)

var mockCommand = command{
	name:     "mock",
	short:    "serve the reference agents until interrupted (a test bed for others' clients)",
	synopsis: []string{"mock [--listen 127.0.0.1:PORT] [--sabotage IDS] [--ca-file FILE]"},
	long: `Prints each agent's card URL and a "# config" line, then serves until SIGINT or SIGTERM. Loopback only; with
--listen the agents take PORT, PORT+1, … The agents serve https with certificates of a test CA: its PEM is written
to --ca-file (default: extconf-mock-ca.pem in the temporary directory) and the "# config" line names it as caFile,
so that line saved as a file is a complete configuration for them wherever it is used.`,
	examples: []string{
		"# ephemeral ports", "runsuite mock",
		"# fixed ports, one deliberate fault on", "runsuite mock --listen 127.0.0.1:9400 --sabotage terms.digest-uppercase-hex",
	},
	run: cmdMock,
}

func cmdMock(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlags("mock")
	sab := fs.String("sabotage", "", "toggle `IDS` to switch on")
	latFlag := fs.String("latitude", "", "latitude `IDS` to switch on (other choices the documents permit)")
	listen := fs.String("listen", "", "loopback `HOST:PORT`; the agents take PORT, PORT+1, … (default: ephemeral ports)")
	caFile := fs.String("ca-file", filepath.Join(os.TempDir(), "extconf-mock-ca.pem"), "write the agents' test CA (PEM) to `FILE`; the announcement names it as caFile")
	if err := parseNoArgs(fs, args); err != nil {
		return exitUsage, err
	}
	// --sabotage also takes latitude ids here: the container target hands a reference-agent image the run's whole
	// set as --sabotage (harness/target/container).
	lats, err := parseLatitudes(*latFlag)
	if err != nil {
		return exitUsage, err
	}
	ids := splitList(*sab)
	for _, l := range lats {
		ids = append(ids, string(l.ID))
	}
	set, err := sabotage.Parse(ids...)
	if err != nil {
		return exitUsage, usageError{err}
	}
	if *listen != "" {
		host, port, err := net.SplitHostPort(*listen)
		ip := net.ParseIP(host)
		p, perr := strconv.Atoi(port)
		if err != nil || perr != nil || ip == nil || !ip.IsLoopback() || p < 1 || p > 65535-63 {
			return exitUsage, usageError{fmt.Errorf("--listen %q: want a loopback IP and a port, e.g. 127.0.0.1:9400", *listen)}
		}
		// Each reference agent is its own origin: the core hands out the next free port of the block.
		os.Setenv(a2atest.EnvBind, host)
		os.Setenv(a2atest.EnvPorts, fmt.Sprintf("%d-%d", p, p+63))
	}
	tgt, err := mockagents.Start(set)
	if err != nil {
		return exitFail, err
	}
	defer tgt.Close()
	if err := announceCA(tgt, *caFile); err != nil {
		// A read-only filesystem (a reference-agent image) still serves; the announcement then names no CA.
		fmt.Fprintf(stderr, "runsuite mock: warning: %v\n", err)
	}
	if err := announce(stdout, tgt); err != nil {
		return exitFail, err
	}
	<-ctx.Done() // interrupt, or SIGTERM (`docker stop`: PID 1 gets no default handler)
	return exitPass, nil
}

// announceCA writes the test CA the agents' certificates chain to into path and makes the announcement name it:
// an operator outside the repository has no fixtures/testpki/ca.pem.
func announceCA(tgt *target.Target, path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	if err := os.WriteFile(abs, testpki.CACertPEM(), 0o644); err != nil {
		return fmt.Errorf("--ca-file: %w", err)
	}
	if an := tgt.Announce; an != nil {
		tgt.Announce = func() (*target.Config, error) {
			cfg, err := an()
			if cfg != nil {
				cfg.CAFile = abs
			}
			return cfg, err
		}
	}
	return nil
}
