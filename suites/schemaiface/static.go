package schemaiface

import (
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strings"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/refclients/skiface"
)

// registerCard: the Agent Card advertisement (static: the card as fetched).
func registerCard(e *harness.Env) {
	spec(e, "SI-9.1a", "the Agent Card advertises the describe_skill AgentSkill", func(w *harness.W) {
		s := open(w, "SI-9.1a")
		_, ok := s.card.Skill(skiface.DescribeSkill)
		w.Check(ok, "skills[] holds an AgentSkill with id describe_skill", fmt.Sprintf("skill ids %v", skillIDs(s)), s.cardEx)
	})
	spec(e, "SI-9.1b", "every schema-governed domain skill of the extension is an AgentSkill of the card", func(w *harness.W) {
		s := open(w, "SI-9.1b")
		w.Check(len(s.entries) > 0, "params.skills advertises at least one domain skill", "none", s.cardEx)
		for _, en := range s.entries {
			_, ok := s.card.Skill(en.SkillID)
			w.Check(ok, "skills[] holds the AgentSkill "+en.SkillID, fmt.Sprintf("skill ids %v", skillIDs(s)), s.cardEx)
		}
	})
	spec(e, "SI-9.2", "capabilities.extensions declares the schema-interface extension URI exactly", func(w *harness.W) {
		s := open(w, "SI-9.2")
		var uris []string
		for _, x := range s.card.Capabilities.Extensions {
			uris = append(uris, x.URI)
		}
		_, ok := s.card.Extension(URI)
		w.Check(ok, "an extension entry whose uri is "+URI, fmt.Sprintf("extension uris %q", uris), s.cardEx)
	})
	spec(e, "SI-9.5a", "the extension params carry interface_version \"1.0\"", func(w *harness.W) {
		s := open(w, "SI-9.5a")
		v, ok := s.params["interface_version"].(string)
		w.Check(ok && v == "1.0", `params.interface_version is the string "1.0"`, fmt.Sprintf("%#v", s.params["interface_version"]), s.cardEx)
	})
	spec(e, "SI-9.5b", "the extension params carry a skills array", func(w *harness.W) {
		s := open(w, "SI-9.5b")
		_, ok := s.params["skills"].([]any)
		w.Check(ok, "params.skills is a JSON array", fmt.Sprintf("%s", clip(string(mustJSON(s.params["skills"])), 200)), s.cardEx)
	})
	for _, c := range []struct{ row, member string }{{"SI-9.6a", "skill_id"}, {"SI-9.6b", "skill_version"}, {"SI-9.6c", "interface_digest"}} {
		c := c
		spec(e, c.row, "every params.skills entry contains "+c.member, func(w *harness.W) {
			s := open(w, c.row)
			w.Check(len(s.entries) > 0, "params.skills has entries", "none", s.cardEx)
			for i, en := range s.entries {
				w.Check(en.has[c.member], fmt.Sprintf("params.skills[%d] contains %s", i, c.member),
					fmt.Sprintf("members %v", keys(en.has)), s.cardEx)
			}
		})
	}
	spec(e, "SI-2.1a", "the card's extension entry carries each skill's Skill Interface Document Digest", func(w *harness.W) {
		s := open(w, "SI-2.1a")
		w.Check(len(s.entries) > 0, "params.skills has entries", "none", s.cardEx)
		for i, en := range s.entries {
			w.Check(en.has["interface_digest"] && isDigest(en.Digest),
				fmt.Sprintf("params.skills[%d] (%s) carries interface_digest as sha256:<64 lowercase hex>", i, en.SkillID),
				fmt.Sprintf("interface_digest %q", en.Digest), s.cardEx)
		}
	})
	spec(e, "SI-9.7", "every params.skills skill_id names an AgentSkill of the same card", func(w *harness.W) {
		s := open(w, "SI-9.7")
		w.Check(len(s.entries) > 0, "params.skills has entries", "none", s.cardEx)
		for _, en := range s.entries {
			_, ok := s.card.Skill(en.SkillID)
			w.Check(ok && en.SkillID != "", fmt.Sprintf("skill_id %q is the id of an AgentSkill in skills[]", en.SkillID),
				fmt.Sprintf("skill ids %v", skillIDs(s)), s.cardEx)
		}
	})
	spec(e, "SI-9.9", "each skill_id has exactly one advertised binding (concurrent versions use distinct ids)", func(w *harness.W) {
		s := open(w, "SI-9.9")
		seen := map[string]int{}
		for _, en := range s.entries {
			seen[en.SkillID]++
		}
		w.Check(len(s.entries) > 0, "params.skills has entries", "none", s.cardEx)
		for id, n := range seen {
			w.Check(n == 1, "skill_id "+id+" appears in one params.skills entry", fmt.Sprintf("%d entries", n), s.cardEx)
		}
	})
}

func skillIDs(s *sess) []string {
	var out []string
	for _, k := range s.card.Skills {
		out = append(out, k.ID)
	}
	return out
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// registerDocuments: the Skill Interface Documents describe_skill returns (static: the documents as received).
func registerDocuments(e *harness.Env) {
	eachRef := func(row, text string, check func(w *harness.W, s *sess, d *docSeen, r refSeen)) {
		spec(e, row, text, func(w *harness.W) {
			s := open(w, row)
			for _, d := range s.docs(row) {
				rs := refs(d.tree)
				w.Check(len(rs) >= 2, "the document of "+d.skill+" carries input_schema and output_schema references",
					fmt.Sprintf("%d Schema References", len(rs)), d.ans.ex)
				for _, r := range rs {
					check(w, s, d, r)
				}
			}
		})
	}
	inlineSchema := func(row string) func(w *harness.W, s *sess, d *docSeen, r refSeen) {
		return func(w *harness.W, s *sess, d *docSeen, r refSeen) {
			_, ok := r.schema()
			w.Check(ok, d.skill+r.path+" carries its schema inline in resolution.schema (an object or boolean)",
				clip(string(mustJSON(r.m["resolution"])), 200), d.ans.ex)
		}
	}
	eachRef("SI-6.6", "every Schema Reference returned by describe_skill carries its schema inline", inlineSchema("SI-6.6"))
	eachRef("SI-7.4b", "every Schema Reference includes its schema in resolution.schema", inlineSchema("SI-7.4b"))
	eachRef("SI-9.23a", "every Schema Reference in a returned document contains the complete domain schema inline", inlineSchema("SI-9.23a"))
	inlineType := func(row string) func(w *harness.W, s *sess, d *docSeen, r refSeen) {
		return func(w *harness.W, s *sess, d *docSeen, r refSeen) {
			res, _ := r.m["resolution"].(map[string]any)
			w.Check(res["type"] == "inline", d.skill+r.path+`/resolution/type is "inline"`, fmt.Sprintf("%#v", res["type"]), d.ans.ex)
		}
	}
	eachRef("SI-7.4a", "every Schema Reference has resolution.type inline", inlineType("SI-7.4a"))
	eachRef("SI-9.23b", "every Schema Reference in a returned document sets resolution.type to inline", inlineType("SI-9.23b"))
	noLocator := func(row string) func(w *harness.W, s *sess, d *docSeen, r refSeen) {
		return func(w *harness.W, s *sess, d *docSeen, r refSeen) {
			res, _ := r.m["resolution"].(map[string]any)
			var locators []string
			for k, v := range res {
				if k != "type" && k != "schema" && isLocator(k, v) {
					locators = append(locators, k)
				}
			}
			sort.Strings(locators)
			_, inline := r.schema()
			w.Check(len(locators) == 0 && inline, d.skill+r.path+"/resolution embeds its schema and carries no external locator (a member naming or holding a URL, URI, path or reference)",
				fmt.Sprintf("locator members %v in %s", locators, clip(string(mustJSON(res)), 200)), d.ans.ex)
		}
	}
	eachRef("SI-7.5", "no Schema Reference carries an external schema locator in place of the embedded schema", noLocator("SI-7.5"))
	compiles := func(row string) func(w *harness.W, s *sess, d *docSeen, r refSeen) {
		return func(w *harness.W, s *sess, d *docSeen, r refSeen) {
			sch, ok := r.schema()
			if !ok {
				return // graded by SI-6.6
			}
			if dl := r.str("dialect"); !skiface.TrustedDialect(dl) {
				w.Blocked(d.skill + r.path + ": dialect " + dl + " is not one the harness holds a trusted meta-schema for (a client's policy, not an agent violation)")
			}
			// Digest recomputed so only reference resolution is judged here (digests have their own rows).
			dg, _ := skiface.SchemaDigest(sch)
			ref := map[string]any{"schema_uri": r.str("schema_uri"), "version": "1.0", "dialect": r.str("dialect"),
				"digest": dg, "resolution": map[string]any{"type": "inline", "schema": json.RawMessage(sch)}}
			_, err := skiface.CompileSchema(mustJSON(ref), limits(s.e))
			w.Check(err == nil, d.skill+r.path+": every $ref and $dynamicRef resolves inside resolution.schema (compiled with retrieval disabled)",
				fmt.Sprint(err), d.ans.ex)
		}
	}
	eachRef("SI-6.7", "every $ref and $dynamicRef resolves within its own resolution.schema", compiles("SI-6.7"))
	spec(e, "SI-12.1", "no Schema Reference directs the client to fetch a schema", func(w *harness.W) {
		s := open(w, "SI-12.1")
		loc, comp := noLocator("SI-12.1"), compiles("SI-12.1")
		for _, d := range s.docs("SI-12.1") {
			for _, r := range refs(d.tree) {
				loc(w, s, d, r)
				comp(w, s, d, r)
			}
		}
	})
	eachRef("SI-6.8", "every embedded schema resource used as a reference target identifies itself with an absolute URI", func(w *harness.W, s *sess, d *docSeen, r refSeen) {
		sch, ok := r.schema()
		if !ok {
			return
		}
		tree := decodeTree(sch)
		var ids []string
		var reflist []string
		walkSchema(tree, true, func(m map[string]any, root bool) {
			if id, ok := m["$id"].(string); ok && !root {
				ids = append(ids, id)
			}
			for _, k := range []string{"$ref", "$dynamicRef"} {
				if v, ok := m[k].(string); ok {
					reflist = append(reflist, v)
				}
			}
		})
		targets := 0
		for _, id := range ids {
			used := false
			for _, rf := range reflist {
				base, _, _ := strings.Cut(rf, "#")
				if base != "" && (base == id || strings.HasSuffix(base, "/"+id)) {
					used = true
				}
			}
			if !used {
				continue
			}
			targets++
			u, err := url.Parse(id)
			w.Check(err == nil && u.Scheme != "" && u.Fragment == "" && !strings.Contains(id, "#"),
				d.skill+r.path+": the embedded resource targeted by a reference has an absolute $id", fmt.Sprintf("$id %q", id), d.ans.ex)
		}
		w.Check(true, d.skill+r.path+": reference targets examined", fmt.Sprintf("%d embedded resources, %d reference targets", len(ids), targets), d.ans.ex)
	})
	eachRef("SI-6.10", "embedded schema resources use the Schema Reference's dialect", func(w *harness.W, s *sess, d *docSeen, r refSeen) {
		sch, ok := r.schema()
		if !ok {
			return
		}
		dialect := r.str("dialect")
		n := 0
		walkSchema(decodeTree(sch), true, func(m map[string]any, root bool) {
			_, hasID := m["$id"]
			if !root && !hasID {
				return
			}
			n++
			if v, ok := m["$schema"]; ok {
				vs, _ := v.(string)
				w.Check(sameDialect(vs, dialect), d.skill+r.path+": the resource's $schema equals the dialect "+dialect,
					fmt.Sprintf("$schema %#v", v), d.ans.ex)
			}
		})
		w.Check(true, d.skill+r.path+": schema resources examined", fmt.Sprintf("%d", n), d.ans.ex)
	})
	eachRef("SI-7.1a", "each Schema Reference digest is the SHA-256 of the JCS form of resolution.schema", func(w *harness.W, s *sess, d *docSeen, r refSeen) {
		sch, ok := r.schema()
		if !ok {
			return
		}
		dg, err := skiface.SchemaDigest(sch)
		w.Check(err == nil && strings.EqualFold(dg, r.str("digest")), d.skill+r.path+"/digest equals sha256 over JCS(resolution.schema) = "+dg,
			fmt.Sprintf("digest %q (%v)", r.str("digest"), err), d.ans.ex)
	})
	eachRef("SI-7.2", "every Schema Reference digest is sha256: followed by 64 lowercase hex digits", func(w *harness.W, s *sess, d *docSeen, r refSeen) {
		w.Check(isDigest(r.str("digest")), d.skill+r.path+"/digest matches ^sha256:[0-9a-f]{64}$", fmt.Sprintf("%q", r.str("digest")), d.ans.ex)
	})
	spec(e, "SI-7.3", "every resolution.schema satisfies the JCS input requirements as received", func(w *harness.W) {
		s := open(w, "SI-7.3")
		for _, d := range s.docs("SI-7.3") {
			problems := ijsonProblems(d.ans.ex.ResponseBody, d.ans.ex.Events)
			w.Check(len(problems) == 0, "describe_skill("+d.skill+"): no duplicate member, unrepresentable number or lone surrogate inside resolution.schema",
				strings.Join(problems, "; "), d.ans.ex)
			for _, r := range refs(d.tree) {
				if sch, ok := r.schema(); ok {
					_, err := skiface.JCS(sch)
					w.Check(err == nil, d.skill+r.path+": resolution.schema canonicalizes under RFC 8785", fmt.Sprint(err), d.ans.ex)
				}
			}
		}
	})
	trusted := func(row, what string) {
		spec(e, row, what, func(w *harness.W) {
			s := open(w, row)
			for _, d := range s.docs(row) {
				err := skiface.ValidateDocument(d.raw)
				w.Check(err == nil, "the document of "+d.skill+" is valid against the trusted Skill Interface Schema (derived from the draft's prose)",
					fmt.Sprint(err), d.ans.ex)
			}
		})
	}
	trusted("SI-8.1", "the assembled document conforms to the unmodified standard Skill Interface Schema")
	trusted("SI-9.25a", "describe_skill does not redefine the standard Skill Interface structure")
	trusted("SI-12.10a", "the documents show no modification of the standard Skill Interface Schema")
	spec(e, "SI-6.14", "every returned document validates against the Skill Interface Schema with every inline digest correct", func(w *harness.W) {
		s := open(w, "SI-6.14")
		for _, d := range s.docs("SI-6.14") {
			err := skiface.ValidateDocument(d.raw)
			w.Check(err == nil, "the document of "+d.skill+" validates against the trusted Skill Interface Schema", fmt.Sprint(err), d.ans.ex)
			for _, r := range refs(d.tree) {
				sch, ok := r.schema()
				dg, _ := skiface.SchemaDigest(sch)
				w.Check(ok && dg == r.str("digest"), d.skill+r.path+": the inline schema's digest is correct", fmt.Sprintf("declared %q, calculated %q", r.str("digest"), dg), d.ans.ex)
			}
		}
	})
	spec(e, "SI-8.14a", "supporting-record kinds are unique within a document", func(w *harness.W) {
		s := open(w, "SI-8.14a")
		for _, d := range s.docs("SI-8.14a") {
			seen := map[string]bool{}
			for _, k := range kinds(d.tree) {
				w.Check(!seen[k], d.skill+": supporting-record kind "+k+" is declared once", "declared again", d.ans.ex)
				seen[k] = true
			}
			w.Check(true, d.skill+": kinds examined", fmt.Sprint(kinds(d.tree)), d.ans.ex)
		}
	})
	spec(e, "SI-8.14b", "no supporting-record kind equals the document's skill_id", func(w *harness.W) {
		s := open(w, "SI-8.14b")
		for _, d := range s.docs("SI-8.14b") {
			id, _ := d.tree["skill_id"].(string)
			for _, k := range kinds(d.tree) {
				w.Check(k != id, d.skill+": supporting-record kind "+k+" differs from skill_id", "kind equals skill_id "+id, d.ans.ex)
			}
			w.Check(true, d.skill+": kinds examined", fmt.Sprint(kinds(d.tree)), d.ans.ex)
		}
	})
	spec(e, "SI-11.1", "a schema_uri and version always come with the same digest", func(w *harness.W) {
		s := open(w, "SI-11.1")
		type seenAt struct{ digest, where string }
		seen := map[string]seenAt{}
		for _, d := range s.docs("SI-11.1") {
			for _, r := range refs(d.tree) {
				k := r.str("schema_uri") + " @ " + r.str("version")
				if p, ok := seen[k]; ok {
					w.Check(p.digest == r.str("digest"), "("+k+") maps to one digest",
						fmt.Sprintf("%s at %s, %s at %s%s", p.digest, p.where, r.str("digest"), d.skill, r.path), d.ans.ex)
					continue
				}
				seen[k] = seenAt{r.str("digest"), d.skill + r.path}
				w.Check(true, "("+k+") recorded", r.str("digest"), d.ans.ex)
			}
		}
	})
	eachRef("SI-11.2", "every Schema Reference version is an exact MAJOR.MINOR Version String", func(w *harness.W, s *sess, d *docSeen, r refSeen) {
		w.Check(versionString.MatchString(r.str("version")), d.skill+r.path+"/version is MAJOR.MINOR without leading zeros", fmt.Sprintf("%q", r.str("version")), d.ans.ex)
	})
	eachRef("SI-11.3a", "the document names an exact schema version and the digest of the exact content", func(w *harness.W, s *sess, d *docSeen, r refSeen) {
		w.Check(versionString.MatchString(r.str("version")), d.skill+r.path+"/version is an exact Version String", fmt.Sprintf("%q", r.str("version")), d.ans.ex)
		sch, ok := r.schema()
		dg, _ := skiface.SchemaDigest(sch)
		w.Check(ok && dg == r.str("digest"), d.skill+r.path+"/digest is the digest of the embedded content", fmt.Sprintf("declared %q, calculated %q", r.str("digest"), dg), d.ans.ex)
	})
	eachRef("SI-11.3b", "no Schema Reference carries a mutable latest-style version or URI", func(w *harness.W, s *sess, d *docSeen, r refSeen) {
		// The sentence binds what the assembler selects, "an exact version and digest"; a schema_uri is an identity
		// whose last segment (…:current, …/stable) says nothing of mutability, so only the version is read.
		v := strings.ToLower(strings.TrimSpace(r.str("version")))
		bad := v == "latest" || v == "current" || v == "stable" || v == "*" || strings.HasPrefix(v, "latest") || strings.HasSuffix(v, ".x")
		w.Check(!bad, d.skill+r.path+": the version is no mutable tag (latest, current, stable, a wildcard)",
			fmt.Sprintf("version %q, schema_uri %q", r.str("version"), r.str("schema_uri")), d.ans.ex)
	})
}

func kinds(doc map[string]any) []string {
	var out []string
	recs, _ := doc["supporting_record_schemas"].([]any)
	for _, r := range recs {
		m, _ := r.(map[string]any)
		if k, ok := m["kind"].(string); ok {
			out = append(out, k)
		}
	}
	return out
}

// walkSchema visits every schema object of a JSON Schema value (root first).
func walkSchema(v any, root bool, f func(m map[string]any, root bool)) {
	switch x := v.(type) {
	case map[string]any:
		f(x, root)
		for k, c := range x {
			if k == "enum" || k == "const" || k == "examples" || k == "default" {
				continue
			}
			walkSchema(c, false, f)
		}
	case []any:
		for _, c := range x {
			walkSchema(c, false, f)
		}
	}
}

// locatorNames are resolution member names that direct a reader elsewhere.
var locatorNames = []string{"url", "uri", "href", "location", "path", "ref", "$ref", "link", "file", "endpoint", "source", "locator"}

// isLocator reports whether a resolution member is an external schema locator: a member named for a location, or a
// string value that is a URL with a retrieval scheme or a filesystem path. A media type or a note is not one.
func isLocator(name string, v any) bool {
	n := strings.ToLower(name)
	for _, l := range locatorNames {
		if n == l || strings.HasSuffix(n, "_"+l) || strings.HasSuffix(n, l+"s") {
			return true
		}
	}
	s, ok := v.(string)
	if !ok {
		return false
	}
	if strings.HasPrefix(s, "/") || strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") || strings.HasPrefix(s, "~/") {
		return true
	}
	if u, err := url.Parse(s); err == nil {
		switch strings.ToLower(u.Scheme) {
		case "http", "https", "file", "ftp", "ftps", "s3", "gs":
			return true
		}
	}
	return false
}

// sameDialect compares two dialect URIs the way compilation identifies a meta-schema: an empty fragment is no
// fragment ("…/schema#" and "…/schema" name the same resource, RFC 3986 §6.2.3 aside from the empty fragment).
func sameDialect(a, b string) bool {
	return strings.TrimSuffix(strings.TrimSpace(a), "#") == strings.TrimSuffix(strings.TrimSpace(b), "#")
}
