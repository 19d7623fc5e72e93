// Command harnessconf turns the reference agents' announcement (`runsuite mock`'s "# config" line, on stdin)
// into the target configuration the harness image reads: the same members, with caFile naming the test CA at
// the path the image sees (-ca). docker/harness-leg.sh uses it.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
)

func main() {
	ca := flag.String("ca", "", "the test CA's path as the harness will read it")
	flag.Parse()
	var cfg map[string]json.RawMessage
	if err := json.NewDecoder(os.Stdin).Decode(&cfg); err != nil || cfg == nil {
		fmt.Fprintln(os.Stderr, "harnessconf: the announcement is not a JSON object:", err)
		os.Exit(1)
	}
	if *ca != "" {
		cfg["caFile"], _ = json.Marshal(*ca)
	}
	out, _ := json.Marshal(cfg)
	fmt.Println(string(out))
}
