package evidence_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/evidence"
)

// chromium finds a headless-capable Chromium: $EXTCONF_CHROMIUM, else Debian's `chromium`, else
// `chromium-browser`.
func chromium() string {
	if p := os.Getenv("EXTCONF_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// headless runs Chromium on a file:// URL only, with everything that could reach the network switched off.
func headless(t *testing.T, bin string, extra ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir=" + t.TempDir()}, extra...)
	cmd := exec.CommandContext(ctx, bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", bin, strings.Join(args, " "), err, stderr.String())
	}
	return stdout.Bytes()
}

// TestHTMLRendersInChromium is a rendering check of the HTML report, not a conformance row: Chromium loads the
// single file, the DOM it builds holds the claim/evidence banner and the verdict counts, and a screenshot is
// produced. Skipped (with the reason) when Chromium is not installed; .ci/run installs it.
func TestHTMLRendersInChromium(t *testing.T) {
	bin := chromium()
	if bin == "" {
		t.Skip("chromium not installed (apt-get install -y --no-install-recommends chromium, or set EXTCONF_CHROMIUM): the HTML report's rendering check is skipped; it is not a conformance row")
	}
	for _, tc := range []struct {
		name   string
		runner harness.Runner
		banner string
		class  string
	}{
		{"self-run claim", harness.Runner{Name: "me"}, "CLAIM, NOT EVIDENCE: FAILED run by me (tier self)", "banner claim"},
		{"third-party evidence", thirdParty, `EVIDENCE: FAILED third-party run by "Independent Test Lab", signed by key KeZkuhEOUUuMyvw_aK_O_Z1hHNnueQlTRIaBwMQqj9Y`, "banner evidence"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := testKey(t)
			path := writeBundle(t, tc.runner, k)
			pub := k.Public()
			rep := verify(t, path, &pub) // pinned: the evidence banner needs the signer's key
			transcript, _ := os.ReadFile(filepath.Join(filepath.Dir(path), evidence.TranscriptFile))
			dir := t.TempDir()
			page := filepath.Join(dir, "report.html")
			var buf bytes.Buffer
			if err := evidence.HTML(&buf, rep.Bundle, evidence.HTMLOptions{Transcript: transcript, Verification: rep}); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(page, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			url := "file://" + page
			dom := string(headless(t, bin, "--dump-dom", url))
			banner := regexp.MustCompile(`<div id="standing" class="([^"]+)"[^>]*>\s*<strong>([^<]+)</strong>`).FindStringSubmatch(dom)
			if banner == nil {
				t.Fatalf("the rendered DOM has no banner:\n%.2000s", dom)
			}
			if banner[1] != tc.class || strings.ReplaceAll(banner[2], "&quot;", `"`) != tc.banner {
				t.Fatalf("banner class %q text %q, want %q %q", banner[1], banner[2], tc.class, tc.banner)
			}
			for verdict, n := range map[string]string{"executed-pass": "1", "executed-fail": "1"} {
				re := regexp.MustCompile(`<tr data-document="terms">.*?data-verdict="` + verdict + `">(\d+)</td>`)
				m := re.FindStringSubmatch(dom)
				if m == nil || m[1] != n {
					t.Errorf("rendered counts: terms %s = %v, want %s", verdict, m, n)
				}
			}
			total := regexp.MustCompile(`<tr data-document="total">.*?data-verdict="executed-fail">(\d+)</th>`).FindStringSubmatch(dom)
			if total == nil || total[1] != "1" {
				t.Errorf("rendered total executed-fail: %v", total)
			}
			shot := filepath.Join(dir, "report.png")
			headless(t, bin, "--screenshot="+shot, "--window-size=1280,2000", url)
			png, err := os.ReadFile(shot)
			if err != nil {
				t.Fatalf("no screenshot: %v", err)
			}
			if !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) || len(png) < 10_000 {
				t.Fatalf("screenshot is not a rendered PNG (%d bytes)", len(png))
			}
			if out := os.Getenv("EXTCONF_REPORT_SCREENSHOT_DIR"); out != "" {
				_ = os.WriteFile(filepath.Join(out, strings.ReplaceAll(tc.name, " ", "-")+".png"), png, 0o644)
			}
		})
	}
}
