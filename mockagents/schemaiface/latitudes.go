package schemaiface

// Schema and instance rewrites of the permitted-other-choice options (Options).

// oneOfOperations turns manage_resource's input schema into a oneOf with one branch per operation.
func oneOfOperations(m map[string]any) {
	props := m["properties"].(map[string]any)
	branch := func(op string, required ...string) map[string]any {
		p := map[string]any{}
		for k, v := range props {
			p[k] = v
		}
		p["operation"] = map[string]any{"const": op, "description": props["operation"].(map[string]any)["description"]}
		if op == "read" {
			delete(p, "reason")
		}
		req := []any{"operation", "resource_id"}
		for _, r := range required {
			req = append(req, r)
		}
		return map[string]any{"type": "object", "properties": p, "required": req, "additionalProperties": false}
	}
	for _, k := range []string{"properties", "required", "additionalProperties", "if", "then"} {
		delete(m, k)
	}
	m["oneOf"] = []any{branch("read"), branch("delete", "reason")}
}

// nestConstraintsSchema moves scope and window_seconds under constraints: {scope, window: {seconds}}.
func nestConstraintsSchema(m map[string]any) {
	props := m["properties"].(map[string]any)
	scope, window := props["scope"], props["window_seconds"]
	delete(props, "scope")
	delete(props, "window_seconds")
	props["constraints"] = map[string]any{"type": "object", "additionalProperties": false, "properties": map[string]any{
		"scope": scope,
		"window": map[string]any{"type": "object", "additionalProperties": false, "required": []any{"seconds"},
			"properties": map[string]any{"seconds": window}},
	}}
}

// renameOutputSchema shows scope and window_seconds as measured_scope and aggregation_window_seconds.
func renameOutputSchema(m map[string]any) {
	props := m["properties"].(map[string]any)
	props["measured_scope"], props["aggregation_window_seconds"] = props["scope"], props["window_seconds"]
	delete(props, "scope")
	delete(props, "window_seconds")
	var req []any
	for _, r := range m["required"].([]any) {
		switch r {
		case "scope":
			r = "measured_scope"
		case "window_seconds":
			r = "aggregation_window_seconds"
		}
		req = append(req, r)
	}
	m["required"] = req
}

// flattenConstraints is the nested input read as the domain logic's flat arguments.
func flattenConstraints(args map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range args {
		if k != "constraints" {
			out[k] = v
		}
	}
	c, _ := args["constraints"].(map[string]any)
	if v, ok := c["scope"]; ok {
		out["scope"] = v
	}
	if w, ok := c["window"].(map[string]any); ok {
		if v, ok := w["seconds"]; ok {
			out["window_seconds"] = v
		}
	}
	return out
}

// nestConstraints is the flat form of the arguments written nested (the profile's requests).
func nestConstraints(args map[string]any) map[string]any {
	out := map[string]any{}
	c := map[string]any{}
	for k, v := range args {
		switch k {
		case "scope":
			c["scope"] = v
		case "window_seconds":
			c["window"] = map[string]any{"seconds": v}
		default:
			out[k] = v
		}
	}
	if len(c) > 0 {
		out["constraints"] = c
	}
	return out
}

// renameOutput shows the flat output under the renamed members.
func renameOutput(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := map[string]any{}
	for k, x := range m {
		switch k {
		case "scope":
			out["measured_scope"] = x
		case "window_seconds":
			out["aggregation_window_seconds"] = x
		default:
			out[k] = x
		}
	}
	return out
}

// wrapInDefs moves an input schema under $defs/input behind a top-level $ref (si.lat.composed-input): the same
// input, composed. $schema, $id and the schema's own $defs stay at the root, so its references still resolve.
func wrapInDefs(m map[string]any) {
	defs, _ := m["$defs"].(map[string]any)
	if defs == nil {
		defs = map[string]any{}
	}
	inner := map[string]any{}
	for k, v := range m {
		switch k {
		case "$schema", "$id", "$defs":
			continue
		}
		inner[k] = v
		delete(m, k)
	}
	defs["input"] = inner
	m["$defs"] = defs
	m["$ref"] = "#/$defs/input"
}
