// Command jsonfield prints one member of the JSON document on stdin, named by a dotted path (a.b.c): strings
// bare, other values as JSON, nothing when absent. Scripts use it where jq may not be installed.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: jsonfield a.b.c < doc.json")
		os.Exit(2)
	}
	var v any
	if err := json.NewDecoder(os.Stdin).Decode(&v); err != nil {
		fmt.Fprintln(os.Stderr, "jsonfield:", err)
		os.Exit(1)
	}
	for _, k := range strings.Split(os.Args[1], ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return
		}
		if v, ok = m[k]; !ok {
			return
		}
	}
	if s, ok := v.(string); ok {
		fmt.Println(s)
		return
	}
	b, _ := json.Marshal(v)
	fmt.Println(string(b))
}
