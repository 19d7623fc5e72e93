package evidence

import _ "embed"

// BundleSchema is the JSON Schema (2020-12) of an extconf evidence bundle.
//
//go:embed bundle.schema.json
var BundleSchema []byte
