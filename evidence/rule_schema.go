package evidence

import _ "embed"

// RuleSchema is the JSON Schema (2020-12) of a proposed rule file (harness/rules, `runsuite prove`).
//
//go:embed rule.schema.json
var RuleSchema []byte
