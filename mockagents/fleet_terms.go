package mockagents

import (
	"github.com/extconf/extconf/mockagents/terms"
	"github.com/extconf/extconf/sabotage"
)

// The terms reference agent: a signed card committing to signed standing proposals over TLS loopback.
func init() {
	register("terms", func(s sabotage.Set) (*Agents, error) {
		roles, cfg, closeFn, err := terms.Start(s)
		if err != nil {
			return nil, err
		}
		return &Agents{Roles: roles, Config: cfg, Close: closeFn}, nil
	})
}
