package target

import "testing"

func TestURLUsesACardURLAsGiven(t *testing.T) {
	for in, want := range map[string]string{
		"https://agent.example/cards/main.json":             "https://agent.example/cards/main.json",
		"https://agent.example/.well-known/agent-card.json": "https://agent.example/.well-known/agent-card.json",
		"https://agent.example/agent":                       "https://agent.example/agent",
	} {
		tg, err := URL(in, Config{})
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := tg.CardURL(""); got != want || tg.Resolved != "" {
			t.Errorf("%s: card URL %s (resolved %q), want %s as given", in, got, tg.Resolved, want)
		}
	}
	for _, in := range []string{"https://agent.example", "https://agent.example/", "http://127.0.0.1:8080/"} {
		tg, err := URL(in, Config{})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := tg.CardURL("")
		if got != trimSlash(in)+WellKnownCardPath || tg.Resolved == "" {
			t.Errorf("%s: card URL %s (resolved %q), want the well-known location, said", in, got, tg.Resolved)
		}
	}
}

func trimSlash(s string) string {
	if len(s) > 0 && s[len(s)-1] == '/' {
		return s[:len(s)-1]
	}
	return s
}
