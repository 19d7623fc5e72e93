package suites

import "github.com/extconf/extconf/suites/onrequest"

func init() { register(onrequest.Suite()) }
