package suites

import "github.com/extconf/extconf/suites/agentcards"

func init() { register(agentcards.Suite()) }
