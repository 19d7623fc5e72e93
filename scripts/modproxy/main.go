// Command modproxy writes a one-module GOPROXY directory (file://) holding this repository's tree at a
// pseudo-version, so that `go install github.com/extconf/extconf/cmd/runsuite@VERSION` can be tried offline
// exactly as a user runs it: the binary then carries the module version the toolchain records for such an
// install, and no VCS data (scripts/version-builds.sh).
//
//	go run ./scripts/modproxy -dir CLEAN_CHECKOUT -out PROXY_DIR -version v0.0.0-20261204061706-fe8907eecaee
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

const modulePath = "github.com/extconf/extconf"

func main() {
	dir := flag.String("dir", "", "a clean checkout of the module (no untracked files)")
	out := flag.String("out", "", "the proxy directory to write")
	version := flag.String("version", "", "the (pseudo-)version to publish the tree as")
	flag.Parse()
	if err := write(*dir, *out, *version); err != nil {
		fmt.Fprintln(os.Stderr, "modproxy:", err)
		os.Exit(1)
	}
}

func write(dir, out, version string) error {
	if dir == "" || out == "" || version == "" {
		return fmt.Errorf("want -dir, -out and -version")
	}
	m := module.Version{Path: modulePath, Version: version}
	if err := module.Check(m.Path, m.Version); err != nil {
		return err
	}
	enc, err := module.EscapePath(modulePath)
	if err != nil {
		return err
	}
	at := filepath.Join(out, enc, "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		return err
	}
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return err
	}
	info, _ := json.Marshal(map[string]string{"Version": version, "Time": time.Now().UTC().Format(time.RFC3339)})
	for name, data := range map[string][]byte{"list": []byte(version + "\n"), version + ".info": info, version + ".mod": mod} {
		if err := os.WriteFile(filepath.Join(at, name), data, 0o644); err != nil {
			return err
		}
	}
	f, err := os.Create(filepath.Join(at, version+".zip"))
	if err != nil {
		return err
	}
	defer f.Close()
	// CreateFromDir leaves out what a module zip never holds (nested modules, vendor/, .git).
	return zip.CreateFromDir(f, m, dir)
}
