package mockagents_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/extconf/extconf/mockagents/interview"
	"github.com/extconf/extconf/mockagents/onrequest"
	"github.com/extconf/extconf/mockagents/schemaiface"
	"github.com/extconf/extconf/mockagents/terms"
	"github.com/extconf/extconf/sabotage"
)

// Every registered per-document latitude of terms, interview, on-request and schema-interface switches an option
// of its reference agent's starter on: a latitude the starter ignored would survive the gate without being run.
func TestStartersSwitchEveryDocumentLatitude(t *testing.T) {
	optionsOf := map[string]func(sabotage.Set) any{
		"terms.": func(s sabotage.Set) any { return terms.OptionsOf(s) },
		"iv.":    func(s sabotage.Set) any { return interview.OptionsOf(s) },
		"or.":    func(s sabotage.Set) any { return onrequest.OptionsOf(s) },
		"si.":    func(s sabotage.Set) any { return schemaiface.OptionsOf(s) },
	}
	seen := map[any]sabotage.ID{}
	for _, l := range sabotage.Latitudes() {
		for prefix, of := range optionsOf {
			if !strings.HasPrefix(string(l.ID), prefix) {
				continue
			}
			got, none := of(sabotage.MustParse(l.ID)), of(sabotage.Set{})
			if reflect.DeepEqual(got, none) {
				t.Errorf("%s: the starter switches no option on", l.ID)
				continue
			}
			key := prefix + fmtValue(got)
			if other, dup := seen[key]; dup {
				t.Errorf("%s and %s switch the same options", l.ID, other)
			}
			seen[key] = l.ID
		}
	}
}

func fmtValue(v any) string { return fmt.Sprintf("%+v", v) }
