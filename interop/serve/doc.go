// Command serve starts the extconf echo agent on the mock-agent server core for interoperability runs with other
// A2A implementations (interop/run.sh drives the official JavaScript SDK's client against it).
//
// It prints the agent card URL as its first line on stdout; with -fleet (the default) it then starts the five
// reference agents (package mockagents, clean: no sabotage) and prints one line per document's agent,
// "agent <role> <card URL> <Authorization value or ->", then "ready"; then it serves until SIGINT or SIGTERM. By default it
// serves HTTPS with a leaf certificate from the TEST CA in fixtures/testpki (trust it with, e.g.,
// NODE_EXTRA_CA_CERTS=fixtures/testpki/ca.pem) and signs the card with the TEST ES256 key (jku = the served JWKS).
//
//	go run ./interop/serve [-addr 127.0.0.1:0] [-tls=false] [-sign=false] [-fleet=false]
package main
