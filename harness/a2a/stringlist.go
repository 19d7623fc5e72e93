package a2a

import (
	"bytes"
	"encoding/json"
)

// UnmarshalJSON reads the proto-JSON form {"list": [scopes]} and also a bare array of scopes, the form a2a-go/v2
// v2.3.1 writes (upstream a2aproject/a2a-go#430). Every Go-SDK agent with a security requirement serves that form;
// refusing it made the whole card undecodable, and every row of every document failed on a card whose only fault
// is the scope list's wrapper — which no row of the five documents grades.
func (l *StringList) UnmarshalJSON(b []byte) error {
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '[' {
		return json.Unmarshal(t, &l.List)
	}
	var w struct {
		List []string `json:"list,omitempty"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	l.List = w.List
	return nil
}
