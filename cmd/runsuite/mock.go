package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"

	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/mockagents"
	"github.com/extconf/extconf/sabotage"
)

var mockCommand = command{
	name:     "mock",
	short:    "serve the reference agents until interrupted (a test bed for others' clients)",
	synopsis: []string{"mock [--listen 127.0.0.1:PORT] [--sabotage IDS]"},
	long: `Prints each agent's card URL, then serves until SIGINT or SIGTERM. Loopback only; with --listen the agents
take PORT, PORT+1, …`,
	examples: []string{
		"# ephemeral ports", "runsuite mock",
		"# fixed ports, one deliberate fault on", "runsuite mock --listen 127.0.0.1:9400 --sabotage terms.digest-uppercase-hex",
	},
	run: cmdMock,
}

func cmdMock(ctx context.Context, args []string, stdout, _ io.Writer) (int, error) {
	fs := newFlags("mock")
	sab := fs.String("sabotage", "", "toggle `IDS` to switch on")
	latFlag := fs.String("latitude", "", "latitude `IDS` to switch on (other choices the documents permit)")
	listen := fs.String("listen", "", "loopback `HOST:PORT`; the agents take PORT, PORT+1, … (default: ephemeral ports)")
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
	if err := announce(stdout, tgt); err != nil {
		return exitFail, err
	}
	<-ctx.Done() // interrupt, or SIGTERM (`docker stop`: PID 1 gets no default handler)
	return exitPass, nil
}
