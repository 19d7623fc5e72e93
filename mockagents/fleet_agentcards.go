package mockagents

import (
	"github.com/extconf/extconf/mockagents/agentcards"
	"github.com/extconf/extconf/sabotage"
)

// The agent-cards reference host (OpenWOP RFC 0202): one multi-tenant host on TLS loopback.
func init() {
	register("agent-cards", func(s sabotage.Set) (*Agents, error) {
		roles, cfg, closeFn, err := agentcards.Start(s)
		if err != nil {
			return nil, err
		}
		return &Agents{Roles: roles, Config: cfg, Close: closeFn}, nil
	})
}
