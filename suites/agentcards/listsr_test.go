package agentcards

import "testing"

// Issue #38: §D.8 reads a short R inside a public string as a whole token ("…/a2a/a1234"), fails it when it looks
// minted (4 characters or more, with a digit), blocks when it could be a word ("v1"), and never reads it inside a
// longer token.
func TestListsRShort(t *testing.T) {
	for _, c := range []struct {
		v, r        string
		hit, unsure bool
	}{
		{"https://h.example/a2a/ag-7f", "ag-7f", true, false},
		{"https://h.example/a2a/ag-7f3c9e", "ag-7f3c9e", true, false},
		{"https://h.example/a2a/v1", "v1", false, true},
		{"https://h.example/a2a/tag-7fx", "ag-7f", false, false},
		{"ag-7f", "ag-7f", true, false},
		{"https://h.example/a2a/jsonrpc", "rpc", false, false},
		{"https://h.example/a2a/jsonrpc", "abcd", false, false},
	} {
		h, u := listsR([]string{c.v}, c.r)
		if (h != "") != c.hit || (u != "") != c.unsure {
			t.Errorf("%q %q: hit %q unsure %q", c.v, c.r, h, u)
		}
	}
}
