package suites

import "github.com/extconf/extconf/suites/schemaiface"

func init() { register(schemaiface.Suite()) }
