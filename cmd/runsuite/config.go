package main

import (
	"fmt"
	"io"

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
