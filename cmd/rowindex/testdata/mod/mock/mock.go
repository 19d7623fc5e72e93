package mock

import "example.com/m/sabotage"

const local = "x.local"

func Serve(set sabotage.Set) {
	if set.On(sabotage.TypedToggle) {
	}
	if set.On("x.literal") {
	}
	if set.On(("x." + "folded")) {
	}
	if set.On(local) {
	}
	_ = sabotage.PlainToggle
}
