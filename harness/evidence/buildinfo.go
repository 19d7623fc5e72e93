package evidence

import (
	"regexp"
	"runtime/debug"
	"strings"
)

// Stamped at link time by builds that may lack VCS data (docker/build-harness.sh, release builds):
//
//	go build -ldflags "-X github.com/extconf/extconf/harness/evidence.stampCommit=$(git rev-parse HEAD)
//	  -X github.com/extconf/extconf/harness/evidence.stampModified=false" ./cmd/runsuite
var (
	stampCommit   string
	stampModified string // "true" when the tree held uncommitted changes
)

// pseudoRE matches a pseudo-version's tail (…-yyyymmddhhmmss-abcdefabcdef), optionally +incompatible or +dirty.
var pseudoRE = regexp.MustCompile(`[.-](\d{14})-([0-9a-f]{12})(\+[a-z]+)?$`)

// buildOf names the build from what the binary carries, most exact first: a commit stamped at link time; the
// VCS revision `go build` records in a checkout; the commit prefix of the pseudo-version `go install …@commit`
// (or a build from a checkout without VCS data) records; a module version alone (`go install …@v0.2.0`: the tag
// and its go.sum hash name the source); else unknown.
func buildOf(bi *debug.BuildInfo, commit, modified string) Build {
	b := Build{Kind: "unknown"}
	if bi != nil {
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			b.Module, b.Sum = v, bi.Main.Sum
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				b.Kind, b.ID = "commit", s.Value
			case "vcs.modified":
				b.Modified = s.Value == "true"
			}
		}
	}
	if commit != "" {
		b.Kind, b.ID, b.Modified = "commit", commit, modified == "true"
		return b
	}
	if b.Kind == "commit" || b.Module == "" {
		return b
	}
	if m := pseudoRE.FindStringSubmatch(b.Module); m != nil {
		b.Kind, b.ID, b.Modified = "commit", m[2], strings.HasSuffix(b.Module, "+dirty")
		return b
	}
	b.Kind, b.ID = "module", b.Module
	return b
}
