// Package rules lets a spec author state a proposed requirement as data: a rule file (YAML or JSON) names the
// sentence, a CEL check over the fetched card (and optionally a fetched document or one A2A exchange), a sabotage
// (an RFC 6902 JSON Patch the reference agent's answer is rewritten with) and latitudes (patches the check must
// accept). The engine here loads and bounds rule files, evaluates checks, rewrites responses through a loopback
// proxy and proves a rule falsifiable; it knows no document package, mock or sabotage registry: cmd starts the
// reference agents and hands their card URLs in.
//
// A rule file is untrusted input like any target data: it is size-limited, decoded strictly (an unknown member is
// an error naming its path), YAML anchors and aliases are refused, and its CEL runs in a bounded environment (no
// I/O, a cost limit, an evaluation timeout).
package rules
