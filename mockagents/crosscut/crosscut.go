package crosscut

import (
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/sabotage"
)

// Options returns o with the cross-cutting latitudes of set that apply to document doc switched on. A latitude
// registered for other documents only is ignored here: its documents are where the falsification run proves it.
func Options(set sabotage.Set, doc string, o a2atest.Options) a2atest.Options {
	on := func(id sabotage.ID) bool {
		l, ok := sabotage.LookupLatitude(string(id))
		return ok && l.Applies(doc) && set.On(id)
	}
	o.SyncOnly = o.SyncOnly || on(sabotage.LatSyncOnly)
	switch {
	case on(sabotage.LatJSONRPCOnly):
		o.Binding = a2a.BindingJSONRPC
	case on(sabotage.LatHTTPJSONOnly):
		o.Binding = a2a.BindingHTTPJSON
	}
	o.MessageReply = o.MessageReply || on(sabotage.LatMessageReply)
	o.TaskReply = o.TaskReply || on(sabotage.LatTaskReply)
	o.NoCardCache = o.NoCardCache || on(sabotage.LatNoCardCache)
	o.Plain401 = o.Plain401 || on(sabotage.LatPlain401)
	return o
}

// On reports whether the cross-cutting latitude id is on in set for document doc (for agents that must honour a
// latitude in their own code as well, e.g. a card they build themselves).
func On(set sabotage.Set, doc string, id sabotage.ID) bool {
	l, ok := sabotage.LookupLatitude(string(id))
	return ok && l.Applies(doc) && set.On(id)
}
