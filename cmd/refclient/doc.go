// Command refclient is the harness's reference schema-interface client (refclients/skiface) behind the
// driver contract of `runsuite client`: it reads the scenario from the EXTCONF_* environment, runs the client
// procedure against EXTCONF_CARD_URL and prints one JSON line {"outcome","reason","output","report"}.
//
//	runsuite client --cmd "go run ./cmd/refclient"
//	runsuite client --cmd "refclient --ignore-digest"          # deliberately broken: trusts carried digests
//	runsuite client --cmd "refclient --sabotage si.client-no-activation-header"
//	runsuite client --cmd "refclient --actions relay"            # a client implementing one action
//	runsuite client --cmd "refclient --omit limits,display"      # a client predating those contract members
//	runsuite client --cmd "refclient --limits nesting=512"       # larger (conforming) limits, declared
//	runsuite client --cmd "refclient --omit hooks"               # a client offering no hooks (compile budget, schema copy)
//
// --sabotage takes the reference client's own toggles (`runsuite sabotage list`, side client); it exists so the
// certification of a client can be shown to fail a client that breaks a rule.
package main
