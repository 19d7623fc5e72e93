package agentcards

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/target"
)

// errInventoryElsewhere: GET /agents at the guessed location (the discovery origin's /agents) answered "no such
// route". RFC 0202 names the operation GET /agents, not where a host mounts it (a v2 host may serve /v2/agents),
// so that answer is no verdict on the host: the rows block naming documents.agent-cards.inventory.
var errInventoryElsewhere = errors.New("GET /agents is not served at this location")

// noRoute reports an answer that says nothing is served at the URL.
func noRoute(ex *a2a.Exchange) bool {
	return ex != nil && (ex.Status == http.StatusNotFound || ex.Status == http.StatusMethodNotAllowed || ex.Status == http.StatusGone)
}

const inventoryWhat = "the URL where the host serves GET /agents, or its path on the discovery document's origin (\"/v2/agents\"), when it is not /agents there"

// resolveInventory reads a configured inventory that is a path ("/v2/agents") on the discovery document's origin,
// so one configuration serves every deployment of a host.
func resolveInventory(inv, discovery string) string {
	if !strings.HasPrefix(inv, "/") {
		return inv
	}
	if o := origin(discovery); o != "" {
		return o + inv
	}
	return ""
}

// inventoryNeed is the deriver's view of the inventory: derived (written into sec) when principal A's GET
// /agents answers an inventory at the guessed location, a need for every row that lists A's inventory when that
// location answers no such route.
func inventoryNeed(ctx context.Context, cl *a2a.Client, cfg target.Config, sec map[string]any, guess string) []harness.Need {
	if _, given := sec["inventory"]; given || cfg.Inventory != "" || guess == "" {
		return nil
	}
	p, ok := principalFor(cfg, roleA)
	if !ok {
		return nil // principals.A is predicted first
	}
	h := p.Header
	if h == "" {
		h = "Authorization"
	}
	raw, ex, err := cl.WithHeader(h, p.Value).FetchJSON(ctx, guess, a2a.Call{Note: "config: GET /agents as principal A"})
	if err == nil {
		if _, perr := parseInventory(raw); perr == nil {
			sec["inventory"] = guess
		}
		return nil
	}
	if !noRoute(ex) {
		return nil // the run grades that answer
	}
	return []harness.Need{{Member: "inventory", Always: true, What: fmt.Sprintf("%s (GET %s answers HTTP %d)", inventoryWhat, guess, ex.Status), Rows: rowsNeedingA}}
}
