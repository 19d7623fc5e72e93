// Command rowindex writes the generated row index, harness/catalog/index.json, and every README section between
// <!-- index:begin … --> and <!-- index:end --> markers, from the catalog, the sabotage registry and a typed scan
// of the source tree. Run it as `go generate ./harness/catalog` (or `go run ./cmd/rowindex`); its
// test fails, naming that command, when a committed file differs from what it would write now.
//
//	rowindex [-root DIR] [-check]
package main
