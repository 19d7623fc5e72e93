package evidence

import (
	"runtime/debug"
	"testing"
)

// The build is named in each way a user builds runsuite: the image (link-time stamp), go build in a checkout
// (VCS settings and the derived pseudo-version), go install …@commit (pseudo-version) and …@tag (module version
// and its go.sum hash). scripts/version-builds.sh makes the real binaries.
func TestBuildOfEveryWayToBuild(t *testing.T) {
	const rev = "fe8907eecaee1b2211eb0401caee1f92ee323612"
	vcs := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: "true"}}
	for _, c := range []struct {
		name          string
		bi            *debug.BuildInfo
		commit, dirty string
		want          Build
	}{
		{"no build info", nil, "", "", Build{Kind: "unknown"}},
		{"go run / -buildvcs=false", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "", "", Build{Kind: "unknown"}},
		{"go build in a checkout", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261204061706-fe8907eecaee+dirty"}, Settings: vcs}, "", "",
			Build{Kind: "commit", ID: rev, Modified: true, Module: "v0.0.0-20261204061706-fe8907eecaee+dirty"}},
		{"image: stamped at link time", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, rev, "false", Build{Kind: "commit", ID: rev}},
		{"stamp wins over VCS", &debug.BuildInfo{Settings: vcs}, "0123456789abcdef0123456789abcdef01234567", "false",
			Build{Kind: "commit", ID: "0123456789abcdef0123456789abcdef01234567"}},
		{"go install …@commit", &debug.BuildInfo{Main: debug.Module{Version: "v0.2.1-0.20261204061706-fe8907eecaee", Sum: "h1:abc="}}, "", "",
			Build{Kind: "commit", ID: "fe8907eecaee", Module: "v0.2.1-0.20261204061706-fe8907eecaee", Sum: "h1:abc="}},
		{"go install …@tag", &debug.BuildInfo{Main: debug.Module{Version: "v0.2.0", Sum: "h1:xyz="}}, "", "",
			Build{Kind: "module", ID: "v0.2.0", Module: "v0.2.0", Sum: "h1:xyz="}},
	} {
		if got := buildOf(c.bi, c.commit, c.dirty); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}
