package sabotage

type ID string

// Typed constants: their declarations are not consultations.
const (
	TypedToggle ID = "x.typed"
	PlainToggle    = "x.plain"
)

type Set struct{}

func (Set) On(id ID) bool { return false }

var registered = []ID{"x.literal", TypedToggle} // the registry itself is never a consultation
