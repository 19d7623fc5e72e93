package main

import (
	"strings"
	"sync"
	"time"
)

// inventory stands in for the routers: each interface's administrative state and counters.
type inventory struct {
	mu    sync.Mutex
	admin map[string]string // "router interface" → up | down
	seq   int
}

func newInventory() *inventory { return &inventory{admin: map[string]string{}} }

// record is one supporting record to publish in its own Artifact.
type record struct {
	id, kind string
	value    map[string]any
}

// semantic is the domain check a valid input may still fail: an edge router's uplink (xe-0/0/0) is its site's
// only path to the core, so this agent never shuts it down ("The receiving agent remains responsible for
// domain-semantic validation … before acting on the input").
func semantic(id string, args map[string]any) string {
	if id == "set_interface_admin_status" && args["admin_status"] == "down" && args["interface"] == "xe-0/0/0" &&
		strings.HasPrefix(args["router"].(string), "edge-") {
		return "an edge router's uplink is never shut down by this agent"
	}
	return ""
}

// run is the skills' domain logic. Its input has been validated; its output is validated by the caller.
func (ag *agent) run(id string, args map[string]any) (map[string]any, []record) {
	inv := ag.routers
	inv.mu.Lock()
	defer inv.mu.Unlock()
	router, ifc := args["router"].(string), args["interface"].(string)
	key := router + " " + ifc
	admin := inv.admin[key]
	if admin == "" {
		admin = "up"
	}
	now := time.Now().UTC().Format(time.RFC3339)
	switch id {
	case "get_interface_status":
		inv.seq++
		oper := admin // a link comes up when it is enabled (the lab has every cable plugged in)
		rec := record{id: "counters-1", kind: "interface-counters", value: map[string]any{
			"record_id": "counters-1", "router": router, "interface": ifc,
			"in_octets": 1_000_000 + inv.seq, "out_octets": 2_000_000 + inv.seq, "in_errors": 0,
			"source": "router-telemetry", "observed_at": now,
		}}
		return map[string]any{"router": router, "interface": ifc, "admin_status": admin, "oper_status": oper,
			"supporting_record_refs": []any{rec.id}}, []record{rec}
	default: // set_interface_admin_status
		want := args["admin_status"].(string)
		inv.admin[key] = want
		rec := record{id: "change-1", kind: "interface-change", value: map[string]any{
			"record_id": "change-1", "router": router, "interface": ifc, "previous_admin_status": admin,
			"admin_status": want, "reason": args["reason"], "applied_at": now,
		}}
		return map[string]any{"router": router, "interface": ifc, "previous_admin_status": admin,
			"admin_status": want, "changed_at": now, "supporting_record_refs": []any{rec.id}}, []record{rec}
	}
}
