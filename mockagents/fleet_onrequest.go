package mockagents

import (
	"github.com/extconf/extconf/mockagents/onrequest"
	"github.com/extconf/extconf/sabotage"
)

func init() {
	register("on-request", func(s sabotage.Set) (*Agents, error) {
		r, c, cl, err := onrequest.Start(s)
		if err != nil {
			return nil, err
		}
		return &Agents{Roles: r, Config: c, Close: cl}, nil
	})
}
