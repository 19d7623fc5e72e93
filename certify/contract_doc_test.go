package certify

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/extconf/extconf/harness/catalog"
	cc "github.com/extconf/extconf/harness/clientcert"
)

// docBlock is one example of docs/client-contract.md marked <!-- recorded: SCENARIO KIND [N] -->.
type docBlock struct {
	scenario, kind string // kind: request, response, reply
	seq            int
	want           any
	line           int
}

var recordedMarker = regexp.MustCompile(`^<!-- recorded: (\S+) (request|response|reply)(?: (\d+))? -->$`)

func readContractDoc(t *testing.T) []docBlock {
	t.Helper()
	b, err := os.ReadFile("../docs/client-contract.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	var out []docBlock
	for i := 0; i < len(lines); i++ {
		m := recordedMarker.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		if i+1 >= len(lines) || lines[i+1] != "```json" {
			t.Fatalf("docs/client-contract.md:%d: a recorded marker is followed by a ```json block", i+1)
		}
		end := i + 2
		for end < len(lines) && lines[end] != "```" {
			end++
		}
		blk := docBlock{scenario: m[1], kind: m[2], line: i + 1}
		blk.seq, _ = strconv.Atoi(m[3])
		if err := json.Unmarshal([]byte(strings.Join(lines[i+2:end], "\n")), &blk.want); err != nil {
			t.Fatalf("docs/client-contract.md:%d: the example is not JSON: %v", i+1, err)
		}
		out = append(out, blk)
		i = end
	}
	return out
}

// The contract page's worked exchanges are what the reference client actually sends and prints (and what the
// reference agents answer it), one per action: each recorded block is compared, member by member, with a real run
// through the contract; "…" stands for a value that changes between runs or for members the example leaves out.
func TestContractDocMatchesReferenceClient(t *testing.T) {
	blocks := readContractDoc(t)
	actions := map[string]bool{}
	need := map[string]bool{}
	for _, b := range blocks {
		need[b.scenario] = true
	}
	o, err := Options(catalog.MustLoad(), cc.Driver{Command: refclient, Timeout: 30 * time.Second}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var keep []cc.Scenario
	for _, s := range o.Scenarios {
		if need[s.ID] {
			keep = append(keep, s)
			actions[s.Action] = true
		}
	}
	o.Scenarios = keep
	res, err := cc.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	obs := map[string]*cc.Observation{}
	for _, s := range res.Scenarios {
		obs[s.ID] = s.Observation
	}
	version := cc.Driver{Command: refclient, Timeout: 30 * time.Second}.Run(context.Background(), map[string]string{cc.EnvAction: cc.ActionVersion})
	for _, a := range []string{cc.ActionInvoke, cc.ActionInvokeBase, cc.ActionDelegate, cc.ActionVerifyTerms, cc.ActionInterview, cc.ActionRelay} {
		if !actions[a] {
			t.Errorf("docs/client-contract.md has no recorded exchange of the %s action", a)
		}
	}
	for _, b := range blocks {
		var got any
		switch {
		case b.scenario == cc.ActionVersion:
			got = replyValue(t, version.Reply)
		case obs[b.scenario] == nil:
			t.Errorf("docs/client-contract.md:%d: no scenario %s", b.line, b.scenario)
			continue
		case b.kind == "reply":
			got = replyValue(t, obs[b.scenario].Reply())
		default:
			ex := exchangeAt(obs[b.scenario], b.seq)
			if ex == nil {
				t.Errorf("docs/client-contract.md:%d: scenario %s has no exchange %d (%s)", b.line, b.scenario, b.seq, obs[b.scenario].Describe())
				continue
			}
			got = exchangeValue(t, ex, b)
		}
		if diff := structDiff("", b.want, got); diff != "" {
			g, _ := json.Marshal(got)
			t.Errorf("docs/client-contract.md:%d (%s %s %d) differs from the reference client's run: %s\nrecorded: %.1500s", b.line, b.scenario, b.kind, b.seq, diff, g)
		}
	}
}

func exchangeAt(o *cc.Observation, seq int) *cc.Exchange {
	for _, ex := range o.Exchanges {
		if ex.Seq == seq {
			return ex
		}
	}
	return nil
}

func replyValue(t *testing.T, r *cc.Reply) any {
	if r == nil {
		return nil
	}
	b, _ := json.Marshal(r)
	var v map[string]any
	_ = json.Unmarshal(b, &v)
	if v["outcome"] == "" { // the version reply has none
		delete(v, "outcome")
	}
	return v
}

// exchangeValue is the recorded exchange in the shape the page shows it: the request as {http, headers (those the
// example names), body}, the response as its body.
func exchangeValue(t *testing.T, ex *cc.Exchange, b docBlock) any {
	decode := func(raw []byte) any {
		if len(bytes.TrimSpace(raw)) == 0 {
			return nil
		}
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			return string(raw)
		}
		return v
	}
	if b.kind == "response" {
		return decode(ex.RespBody)
	}
	headers := map[string]any{}
	if w, ok := b.want.(map[string]any); ok {
		if hs, ok := w["headers"].(map[string]any); ok {
			for k := range hs {
				if v := ex.Header.Get(k); v != "" {
					headers[k] = v
				}
			}
		}
	}
	return map[string]any{"http": ex.Method + " " + ex.Path, "headers": headers, "body": decode(ex.Body)}
}

// structDiff compares an example with a recorded value: "…" as a value matches anything; "…" inside a string
// matches any run of characters; an object with a "…" member may leave members out (else the members are exactly
// those shown); an array ending in "…" may leave elements out at its end.
func structDiff(path string, want, got any) string {
	switch w := want.(type) {
	case string:
		if w == "…" {
			return ""
		}
		g, ok := got.(string)
		if !ok {
			return fmt.Sprintf("%s: want string %q, got %v", path, w, got)
		}
		if strings.Contains(w, "…") {
			parts := strings.Split(w, "…")
			for i := range parts {
				parts[i] = regexp.QuoteMeta(parts[i])
			}
			if !regexp.MustCompile("^" + strings.Join(parts, "(?s:.*)") + "$").MatchString(g) {
				return fmt.Sprintf("%s: %q does not match %q", path, g, w)
			}
			return ""
		}
		if g != w {
			return fmt.Sprintf("%s: want %q, got %q", path, w, g)
		}
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: want an object, got %v", path, got)
		}
		_, open := w["…"]
		for k, wv := range w {
			if k == "…" {
				continue
			}
			gv, present := g[k]
			if !present {
				if wv == "…" {
					continue
				}
				return fmt.Sprintf("%s/%s: missing", path, k)
			}
			if d := structDiff(path+"/"+k, wv, gv); d != "" {
				return d
			}
		}
		if !open {
			for k := range g {
				if _, ok := w[k]; !ok {
					return fmt.Sprintf("%s/%s: the run has this member, the example does not show it", path, k)
				}
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok {
			return fmt.Sprintf("%s: want an array, got %v", path, got)
		}
		n := len(w)
		if n > 0 && w[n-1] == "…" {
			n--
			if len(g) < n {
				return fmt.Sprintf("%s: want at least %d elements, got %d", path, n, len(g))
			}
		} else if len(g) != n {
			return fmt.Sprintf("%s: want %d elements, got %d", path, n, len(g))
		}
		for i := 0; i < n; i++ {
			if d := structDiff(fmt.Sprintf("%s/%d", path, i), w[i], g[i]); d != "" {
				return d
			}
		}
	default:
		if fmt.Sprint(want) != fmt.Sprint(got) {
			return fmt.Sprintf("%s: want %v, got %v", path, want, got)
		}
	}
	return ""
}

// The comparison itself can fail: a changed value, a missing member, an unshown member, a short array.
func TestStructDiff(t *testing.T) {
	var w, g any
	_ = json.Unmarshal([]byte(`{"a":"x…z","b":[1,"…"],"c":"…"}`), &w)
	for doc, wantDiff := range map[string]bool{
		`{"a":"xyz","b":[1,2,3],"c":{"d":1}}`: false,
		`{"a":"xyz","b":[1,2,3]}`:             false,
		`{"a":"xyq","b":[1],"c":1}`:           true,
		`{"a":"xyz","b":[2],"c":1}`:           true,
		`{"a":"xyz","b":[],"c":1}`:            true,
		`{"a":"xyz","b":[1],"c":1,"e":0}`:     true,
		`{"b":[1],"c":1}`:                     true,
	} {
		_ = json.Unmarshal([]byte(doc), &g)
		if d := structDiff("", w, g); (d != "") != wantDiff {
			t.Errorf("%s: diff %q, want a difference %v", doc, d, wantDiff)
		}
	}
}
