package agentcards

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
)

// cardProblems checks raw against what A2A 1.0 requires of an AgentCard in ProtoJSON: the required members present
// and well-typed, every interface on protocol version 1.0 with a known binding, every skill complete, no null
// member (unset members are omitted) and no 0.3-style "kind" discriminator. Empty means valid.
func cardProblems(raw []byte) []string {
	var card map[string]json.RawMessage
	if err := json.Unmarshal(raw, &card); err != nil || card == nil {
		return []string{"not a JSON object"}
	}
	var out []string
	bad := func(f string, a ...any) { out = append(out, fmt.Sprintf(f, a...)) }
	str := func(m map[string]json.RawMessage, k, where string, nonEmpty bool) {
		v, ok := m[k]
		if !ok {
			bad("%s%s is missing", where, k)
			return
		}
		var s string
		if json.Unmarshal(v, &s) != nil {
			bad("%s%s is not a string", where, k)
		} else if nonEmpty && s == "" {
			bad("%s%s is empty", where, k)
		}
	}
	strList := func(m map[string]json.RawMessage, k, where string) {
		v, ok := m[k]
		if !ok {
			bad("%s%s is missing", where, k)
			return
		}
		var l []string
		if json.Unmarshal(v, &l) != nil || l == nil {
			bad("%s%s is not an array of strings", where, k)
		}
	}
	objects := func(k string) []map[string]json.RawMessage {
		v, ok := card[k]
		if !ok {
			bad("%s is missing", k)
			return nil
		}
		var l []map[string]json.RawMessage
		if json.Unmarshal(v, &l) != nil || l == nil {
			bad("%s is not an array of objects", k)
			return nil
		}
		return l
	}

	str(card, "name", "", true)
	str(card, "description", "", false)
	str(card, "version", "", true)
	ifs := objects("supportedInterfaces")
	if ifs != nil && len(ifs) == 0 {
		bad("supportedInterfaces is empty")
	}
	for i, in := range ifs {
		where := fmt.Sprintf("supportedInterfaces[%d].", i)
		str(in, "url", where, true)
		var b, v string
		if json.Unmarshal(in["protocolBinding"], &b) != nil || (b != "JSONRPC" && b != "HTTP+JSON" && b != "GRPC") {
			bad("%sprotocolBinding is %s, want JSONRPC, HTTP+JSON or GRPC", where, show(in["protocolBinding"]))
		}
		if json.Unmarshal(in["protocolVersion"], &v) != nil || v != "1.0" {
			bad("%sprotocolVersion is %s, want \"1.0\"", where, show(in["protocolVersion"]))
		}
		if t, ok := in["tenant"]; ok {
			var s string
			if json.Unmarshal(t, &s) != nil {
				bad("%stenant is not a string", where)
			}
		}
	}
	if v, ok := card["capabilities"]; !ok {
		bad("capabilities is missing")
	} else {
		var m map[string]json.RawMessage
		if json.Unmarshal(v, &m) != nil || m == nil {
			bad("capabilities is not an object")
		}
	}
	strList(card, "defaultInputModes", "")
	strList(card, "defaultOutputModes", "")
	for i, sk := range objects("skills") {
		where := fmt.Sprintf("skills[%d].", i)
		str(sk, "id", where, true)
		str(sk, "name", where, true)
		str(sk, "description", where, false)
		strList(sk, "tags", where)
	}
	if _, ok := card["kind"]; ok {
		bad("carries a \"kind\" member (A2A 0.3 shape; 1.0 has no discriminator)")
	}
	if p := nullPath(raw); p != "" {
		bad("%s is null (ProtoJSON omits unset members)", p)
	}
	return out
}

func show(v json.RawMessage) string {
	if len(v) == 0 {
		return "absent"
	}
	return string(v)
}

// nullPath returns the path of the first null member value, "" when none.
func nullPath(raw []byte) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	var walk func(any, string) string
	walk = func(v any, at string) string {
		switch t := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(t))
			for k := range t {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if t[k] == nil {
					return at + k
				}
				if p := walk(t[k], at+k+"."); p != "" {
					return p
				}
			}
		case []any:
			for i, x := range t {
				if p := walk(x, fmt.Sprintf("%s[%d].", trimDot(at), i)); p != "" {
					return p
				}
			}
		}
		return ""
	}
	return walk(v, "")
}

func trimDot(s string) string { return string(bytes.TrimSuffix([]byte(s), []byte("."))) }

// jsonEqual reports whether two JSON values are equal as values (member order and whitespace ignored).
func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}
