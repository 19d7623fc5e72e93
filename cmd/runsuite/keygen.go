package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/extconf/extconf/harness/evidence"
)

var keygenCommand = command{
	name:     "keygen",
	short:    "make a signing key (private JWK, mode 0600); its public JWK goes to stdout",
	synopsis: []string{"keygen [--alg EdDSA|ES256] --out FILE"},
	long: `Publish the public JWK (stdout) where the readers of your bundles can find it: they pin it with
runsuite verify --key. keygen never overwrites a key.`,
	examples: []string{
		"# an Ed25519 key; keep lab.jwk.json private, publish lab.pub.jwk.json",
		"runsuite keygen --out lab.jwk.json > lab.pub.jwk.json",
		"# a signed third-party run", "runsuite run --target https://agent.example/ --tier third-party --as \"Example Lab\" --sign-key lab.jwk.json",
	},
	run: cmdKeygen,
}

func cmdKeygen(_ context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlags("keygen")
	alg := fs.String("alg", evidence.AlgEdDSA, "`ALG`: EdDSA (Ed25519) or ES256 (P-256)")
	out := fs.String("out", "", "`FILE` to write the private JWK to (mode 0600)")
	if err := parseNoArgs(fs, args); err != nil {
		return exitUsage, err
	}
	if *out == "" {
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
