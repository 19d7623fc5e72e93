// Package evidence builds, writes and checks the evidence bundle: one JCS-canonical JSON document that lets a
// third party check what was run, against what, by whom, with which build, and which sabotage proved each row's
// test able to fail.
package evidence
