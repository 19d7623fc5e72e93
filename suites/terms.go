package suites

import "github.com/extconf/extconf/suites/terms"

func init() { register(terms.Suite()) }
