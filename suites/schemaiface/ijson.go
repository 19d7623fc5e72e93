package schemaiface

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
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

type frame struct {
	object bool
	keys   map[string]bool
	key    string // the member being read (objects)
	expect bool   // objects: next token is a key
}

func scanIJSON(b []byte) []string {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var stack []*frame
	var out []string
	path := func() []string {
		var p []string
		for _, f := range stack {
			if f.object {
				p = append(p, f.key)
			}
		}
		return p
	}
	inSchema := func() bool {
		p := path()
		for i := 0; i+1 < len(p); i++ {
			if p[i] == "resolution" && p[i+1] == "schema" {
				return true
			}
		}
		return false
	}
	value := func() { // a value was read in the top frame
		if n := len(stack); n > 0 && stack[n-1].object {
			stack[n-1].expect = true
		}
	}
	for {
		t, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			out = append(out, "not well-formed JSON: "+err.Error())
			break
		}
		top := (*frame)(nil)
		if n := len(stack); n > 0 {
			top = stack[n-1]
		}
		switch v := t.(type) {
		case json.Delim:
			switch v {
			case '{':
				stack = append(stack, &frame{object: true, keys: map[string]bool{}, expect: true})
			case '[':
				stack = append(stack, &frame{})
			case '}', ']':
				stack = stack[:len(stack)-1]
				value()
			}
		case string:
			if top != nil && top.object && top.expect {
				if top.keys[v] && inSchemaWith(path(), inSchema) {
					out = append(out, fmt.Sprintf("duplicate member %q at /%s", v, strings.Join(path()[:len(path())-1], "/")))
				}
				top.keys[v], top.key, top.expect = true, v, false
				continue
			}
			value()
		case json.Number:
			if inSchema() {
				f, err := strconv.ParseFloat(string(v), 64)
				if err != nil || math.IsInf(f, 0) {
					out = append(out, "number "+string(v)+" is not an IEEE 754 double")
				}
			}
			value()
		default:
			value()
		}
	}
	return out
}

// inSchemaWith reports whether the member about to be read lies inside a resolution.schema value.
func inSchemaWith(_ []string, inSchema func() bool) bool { return inSchema() }
