package falsify

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/sabotage"
)

var idPattern = regexp.MustCompile(`^[a-z]+\.[a-z0-9-]+$`)

// Check verifies the registry against the catalog: ids well-formed, document known, targets exist, belong to the
// toggle's document and are witnessable; each latitude names its documents (or all) and quotes what permits it. It lives here, above both, so that the registry stays a leaf.
func Check(c *catalog.Catalog) []error {
	var errs []error
	for _, t := range sabotage.All() {
		if !idPattern.MatchString(string(t.ID)) {
			errs = append(errs, fmt.Errorf("toggle %q: id must be <doc>.<kebab-name>", t.ID))
		}
		if _, ok := catalog.DocumentByID(t.Document); !ok {
			errs = append(errs, fmt.Errorf("toggle %q: unknown document %q", t.ID, t.Document))
		}
		if t.Side != sabotage.SideAgent && t.Side != sabotage.SideClient {
			errs = append(errs, fmt.Errorf("toggle %q: side must be agent or client", t.ID))
		}
		if len(t.Targets) == 0 || strings.TrimSpace(t.Description) == "" {
			errs = append(errs, fmt.Errorf("toggle %q: needs targets and a description", t.ID))
		}
		for _, id := range t.Targets {
			r, ok := c.Row(id)
			switch {
			case !ok:
				errs = append(errs, fmt.Errorf("toggle %q: unknown target row %q", t.ID, id))
			case r.Document != t.Document:
				errs = append(errs, fmt.Errorf("toggle %q: target %q belongs to %s", t.ID, id, r.Document))
			case !r.Witnessable():
				errs = append(errs, fmt.Errorf("toggle %q: target %q is unwitnessable", t.ID, id))
			}
		}
	}
	for _, l := range sabotage.Latitudes() {
		if !latPattern.MatchString(string(l.ID)) {
			errs = append(errs, fmt.Errorf("latitude %q: id must be <prefix>.lat.<kebab-name>", l.ID))
		}
		if len(l.Documents) == 0 || strings.TrimSpace(l.Permits) == "" || strings.TrimSpace(l.Description) == "" {
			errs = append(errs, fmt.Errorf("latitude %q: needs documents, the permitting sentence and a description", l.ID))
		}
		for _, d := range l.Documents {
			if _, ok := catalog.DocumentByID(d); !ok && d != sabotage.AllDocuments {
				errs = append(errs, fmt.Errorf("latitude %q: unknown document %q", l.ID, d))
			}
		}
	}
	return errs
}

var latPattern = regexp.MustCompile(`^[a-z0-9]+\.lat\.[a-z0-9-]+$`)
