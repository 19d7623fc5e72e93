package suites

import "github.com/extconf/extconf/suites/interview"

func init() { register(interview.Suite()) }
