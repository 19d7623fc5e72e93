package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/extconf/extconf/harness/evidence"
)

func cmdKeygen(args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlags("keygen")
	alg := fs.String("alg", evidence.AlgEdDSA, "EdDSA (Ed25519) or ES256 (P-256)")
	out := fs.String("out", "", "file to write the private JWK to (mode 0600)")
	if err := parse(fs, args); err != nil {
		return exitUsage, err
	}
	if *out == "" || fs.NArg() > 0 {
		return exitUsage, usageError{errors.New("usage: runsuite keygen [--alg EdDSA|ES256] --out FILE")}
	}
	k, err := evidence.GenerateKey(*alg)
	if err != nil {
		return exitUsage, usageError{err}
	}
	priv, err := json.MarshalIndent(k, "", "  ")
	if err != nil {
		return exitFail, err
	}
	f, err := os.OpenFile(*out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return exitFail, fmt.Errorf("%w (keygen never overwrites a key)", err)
	}
	if _, err := f.Write(append(priv, '\n')); err != nil {
		f.Close()
		return exitFail, err
	}
	if err := f.Close(); err != nil {
		return exitFail, err
	}
	pub, err := evidence.PublicJWK(k)
	if err != nil {
		return exitFail, err
	}
	fmt.Fprintf(stderr, "runsuite keygen: private %s key written to %s (mode 0600); its public JWK follows (thumbprint %s)\n", *alg, *out, k.KeyID)
	fmt.Fprintf(stdout, "%s\n", pub)
	return exitPass, nil
}

// parseInterspersed parses flags given before, between or after positional arguments
// ("verify BUNDLE --key FILE") and returns the positionals.
