package suites

import "github.com/extconf/extconf/suites/schemaifaceclient"

func init() { register(schemaifaceclient.Suite()) }
