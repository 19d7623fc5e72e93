// Package clientcert certifies someone else's client: the reference agents play its counterpart (clean, and per
// scenario with one sabotage toggle on), a recording proxy stands in front of them, the client under test is run
// once per scenario through the driver contract (driver.go), and the client-subject catalog rows are graded on
// what it sent and on what it did after a sabotaged answer.
//
// The engine is document-neutral: scenarios, their checks and the counterpart starter come from outside harness/
// (cmd/runsuite wires the reference agents; package certify holds the documents' scenarios).
package clientcert
