package mockagents

import (
	"github.com/extconf/extconf/mockagents/schemaiface"
	"github.com/extconf/extconf/sabotage"
)

func init() {
	register("schema-interface", func(s sabotage.Set) (*Agents, error) {
		roles, cfg, closeFn, err := schemaiface.Start(s)
		if err != nil {
			return nil, err
		}
		return &Agents{Roles: roles, Config: cfg, Close: closeFn}, nil
	})
}
