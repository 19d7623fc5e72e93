package mockagents

import (
	"github.com/extconf/extconf/mockagents/interview"
	"github.com/extconf/extconf/sabotage"
)

func init() {
	register("interview", func(s sabotage.Set) (*Agents, error) {
		roles, cfg, closeFn, err := interview.Start(s)
		if err != nil {
			return nil, err
		}
		return &Agents{Roles: roles, Config: cfg, Close: closeFn}, nil
	})
}
