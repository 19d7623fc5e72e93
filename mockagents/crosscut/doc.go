// Package crosscut switches the cross-cutting latitudes (sabotage's a2a.lat.* ids) on a reference agent: every
// reference agent's starter passes its server options through Options, so each honours every cross-cutting
// latitude registered for its document. The behaviour itself lives in the shared server kit (harness/a2atest).
package crosscut
