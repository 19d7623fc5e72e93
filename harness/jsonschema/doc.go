// Package jsonschema derives a JSON Schema (draft 2020-12) from Go types the way encoding/json and strictjson
// read them: exact member names, no others (additionalProperties false), embedded structs flattened. It is small
// on purpose: the harness's own formats use strings, numbers, booleans, slices, maps, structs and raw JSON.
//
// A type with a method JSONSchema() map[string]any describes itself; a field tagged schema:"deprecated" is marked
// deprecated. ForDocs adds each member's description from the Go doc comments (DocsFromSource extracts them from
// the source at generate time; a running binary has no source).
package jsonschema
