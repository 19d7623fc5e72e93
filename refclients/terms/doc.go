// Package terms is the reference client of the Agent SoW A2A Terms Extension: it reads a card's terms entries,
// fetches and verifies the proposals they commit to (digest, provider signature, standing), and is the reference
// consumer that ranks, filters and renders verified terms. The terms suite grades agents and consumers against it;
// the interview client uses it to verify the proposals an answer projects. Sabotage toggles make it misbehave.
package terms
