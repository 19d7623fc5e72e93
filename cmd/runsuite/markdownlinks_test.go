package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	mdLink  = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	mdFence = regexp.MustCompile("(?ms)^ *```.*?^ *```")
	mdCode  = regexp.MustCompile("`[^`\n]*`")
)

// TestMarkdownLinksResolve: every relative link in the repository's Markdown (outside code) names a file or
// directory that exists, and a link to a heading of a Markdown file names a heading that file has. Documentation
// moved between files (issue #35 moved the README's internals under docs/) must not leave a link dangling.
func TestMarkdownLinksResolve(t *testing.T) {
	root := filepath.Join("..", "..")
	checked := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && p != root || d.Name() == "node_modules" || d.Name() == "runs" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".md") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		text := mdCode.ReplaceAllString(mdFence.ReplaceAllString(string(b), ""), "")
		rel, _ := filepath.Rel(root, p)
		for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
			link := m[1]
			if strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") {
				continue
			}
			file, frag, _ := strings.Cut(link, "#")
			target := p
			if file != "" {
				target = filepath.Join(filepath.Dir(p), filepath.FromSlash(file))
			}
			checked++
			if _, err := os.Stat(target); err != nil {
				t.Errorf("%s: link %q: no such file %s", rel, link, filepath.ToSlash(file))
				continue
			}
			if frag != "" && strings.HasSuffix(target, ".md") && !hasAnchor(t, target, frag) {
				t.Errorf("%s: link %q: %s has no heading #%s", rel, link, filepath.ToSlash(file), frag)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 20 {
		t.Fatalf("only %d relative links found: the walk is broken", checked)
	}
}

// hasAnchor reports whether a Markdown file has a heading whose GitHub anchor is frag.
func hasAnchor(t *testing.T, file, frag string) bool {
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	text := mdFence.ReplaceAllString(string(b), "")
	for _, l := range strings.Split(text, "\n") {
		h := strings.TrimLeft(l, "#")
		if h == l || !strings.HasPrefix(h, " ") {
			continue
		}
		if githubAnchor(strings.TrimSpace(h)) == frag {
			return true
		}
	}
	return false
}

// githubAnchor is GitHub's heading slug: lower case, punctuation other than - and _ dropped, spaces to -.
func githubAnchor(h string) string {
	var sb strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			sb.WriteRune('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			sb.WriteRune(r)
		}
	}
	return sb.String()
}
