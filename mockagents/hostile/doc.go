// Package hostile is a misbehaving A2A agent: unlike the reference agents (spec-correct, broken one toggle at a
// time), every Behaviour here attacks or starves the harness on purpose: it never answers, trickles, sends 2 GiB,
// nests a card 100 000 deep, lies with duplicate members, points the harness at files, private addresses and
// other origins, hides a catastrophic regular expression in a schema, or signs its card with alg none.
//
// It serves plain HTTP on 127.0.0.1 only. Each agent also owns a Bystander: a second loopback listener at another
// origin that the hostile card points at (redirect target, jku, schema $ref), and that records every connection,
// so a test can prove at the OS level that the harness never went there.
//
//	a, err := hostile.Start(hostile.HugeBody)
//	defer a.Close()
//	tgt := &target.Target{Kind: target.KindURL, Agents: a.Roles(), Config: a.Config()}
package hostile
