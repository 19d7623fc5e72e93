package schemaiface

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/extconf/extconf/harness/a2a"
)

var uEscape = regexp.MustCompile(`\\u([0-9a-fA-F]{4})`)

// ijsonProblems scans received bytes token by token (encoding/json keeps the last of duplicate members, so the
// decoded document cannot show them) and reports, inside any resolution.schema value: duplicate member names and
// numbers no IEEE 754 double represents; anywhere: escaped lone surrogates.
func ijsonProblems(body []byte, events [][]byte) []string {
	var out []string
	bodies := [][]byte{body}
	if len(events) > 0 {
		bodies = events
	}
	for _, b := range bodies {
		out = append(out, scanIJSON(b)...)
		out = append(out, loneSurrogates(b)...)
	}
	return out
}

func loneSurrogates(b []byte) []string {
	var out []string
	ms := uEscape.FindAllSubmatchIndex(b, -1)
	for i := 0; i < len(ms); i++ {
		v, _ := strconv.ParseUint(string(b[ms[i][2]:ms[i][3]]), 16, 32)
		switch {
		case v >= 0xD800 && v <= 0xDBFF:
			if i+1 < len(ms) && ms[i+1][0] == ms[i][1] {
				w, _ := strconv.ParseUint(string(b[ms[i+1][2]:ms[i+1][3]]), 16, 32)
				if w >= 0xDC00 && w <= 0xDFFF {
					i++
					continue
				}
			}
			out = append(out, "lone surrogate escape "+string(b[ms[i][0]:ms[i][1]]))
		case v >= 0xDC00 && v <= 0xDFFF:
			out = append(out, "lone surrogate escape "+string(b[ms[i][0]:ms[i][1]]))
		}
	}
	return out
}

// scanIJSON reports the I-JSON issues a2a.ScanIJSON finds inside a resolution.schema value, and a JSON syntax error.
// A duplicate counts as inside when its object's path followed by the member read before it is (so a second
// "schema" member of resolution counts).
func scanIJSON(b []byte) []string {
	var out []string
	err := a2a.ScanIJSON(b, func(is a2a.IJSONIssue) bool {
		if is.Number != "" {
			if inSchema(is.Path) {
				out = append(out, "number "+is.Number+" is not an IEEE 754 double")
			}
			return true
		}
		if inSchema(append(append([]string(nil), is.Path...), is.Prev)) {
			out = append(out, fmt.Sprintf("duplicate member %q at /%s", is.Name, strings.Join(is.Path, "/")))
		}
		return true
	})
	if err != nil {
		out = append(out, "not well-formed JSON: "+err.Error())
	}
	return out
}

// inSchema reports whether a member path lies inside a resolution.schema value.
func inSchema(p []string) bool {
	for i := 0; i+1 < len(p); i++ {
		if p[i] == "resolution" && p[i+1] == "schema" {
			return true
		}
	}
	return false
}
