package onrequest

// On Request (agent-capability.org/ext/on-request/v1): what a client needs to read an agent's declaration and its
// replies. The suite grades agents with these; the relay (onrequest_relay.go) is the reference assistant.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// URI is the extension's URI; replies carry their object under metadata[URI].
const URI = "https://agent-capability.org/ext/on-request/v1"

// Reply-object statuses (§6.1).
const (
	StatusOnRequest      = "on-request"
	StatusActionReferred = "action-referred"
	StatusGivenOnOptIn   = "given-on-opt-in"
)

// Completion values of an entry (OR-3.6).
const (
	CompletionInConversation = "in-conversation"
	CompletionDeferred       = "deferred"
)

// Declaration is the card's declaration of the extension, read from the raw card so that members the typed card
// drops (an explicit `required`, odd params) stay visible.
type Declaration struct {
	URI      string          // as the card spells it
	Exact    bool            // URI is byte-equal to URI (false: a near miss, see NearMissURI)
	Required json.RawMessage // the `required` member as sent; nil when absent
	Params   json.RawMessage // nil when absent
	// Entries are the members of params.skills that are JSON objects; EntriesProblem says why params.skills could
	// not be read as an array of objects ("" when it could).
	Entries        []Entry
	EntriesProblem string
}

// Entry is one params.skills[] member.
type Entry struct {
	Index           int
	Members         map[string]json.RawMessage
	ID              string // "" when absent or not a string
	PersonEntry     string // "" when absent or not a string
	AssistantAccess bool   // true only for a JSON true (absent means false, OR-3.5)
	Completion      string
	// TypeProblems name members whose value is not of the type OR-3.5 / OR-3.6 give them (assistantAccess a
	// boolean; completion in-conversation or deferred): what the entry means is then unknown, and specs that
	// depend on it block rather than guess.
	TypeProblems  []string
	BadCompletion bool // completion is present but not one of the two values
}

// IsAction reports whether the card marks the entry as a skill that changes something (it carries completion).
func (e Entry) IsAction() bool { return e.Completion != "" || e.BadCompletion }

// FindDeclaration reads the declaration from a raw card. It returns nil, nil when the card declares neither the URI
// nor a near miss of it; an exact declaration wins over a near miss.
func FindDeclaration(rawCard []byte) (*Declaration, error) {
	var card struct {
		Capabilities struct {
			Extensions []json.RawMessage `json:"extensions"`
		} `json:"capabilities"`
	}
	if err := json.Unmarshal(rawCard, &card); err != nil {
		return nil, fmt.Errorf("reading capabilities.extensions: %w", err)
	}
	var near *Declaration
	for _, raw := range card.Capabilities.Extensions {
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) != nil {
			continue
		}
		var uri string
		if json.Unmarshal(m["uri"], &uri) != nil {
			continue
		}
		if uri != URI && !NearMissURI(uri) {
			continue
		}
		d := &Declaration{URI: uri, Exact: uri == URI, Required: m["required"], Params: m["params"]}
		d.readEntries()
		if d.Exact {
			return d, nil
		}
		if near == nil {
			near = d
		}
	}
	return near, nil
}

// NearMissURI reports a URI that is not the extension's but becomes it after folding case, dropping a trailing
// slash, upgrading http to https or dropping "www.": a declaration a client keyed on the exact URI never finds.
func NearMissURI(uri string) bool {
	if uri == URI {
		return false
	}
	u := strings.ToLower(strings.TrimSpace(uri))
	u = strings.TrimSuffix(u, "/")
	u = strings.Replace(u, "http://", "https://", 1)
	u = strings.Replace(u, "https://www.", "https://", 1)
	return u == URI
}

func (d *Declaration) readEntries() {
	if len(d.Params) == 0 {
		d.EntriesProblem = "params is absent"
		return
	}
	var params map[string]json.RawMessage
	if json.Unmarshal(d.Params, &params) != nil {
		d.EntriesProblem = "params is not a JSON object: " + clipStr(string(d.Params), 120)
		return
	}
	skills, ok := params["skills"]
	if !ok {
		d.EntriesProblem = "params has no skills member"
		return
	}
	var list []json.RawMessage
	if json.Unmarshal(skills, &list) != nil || bytes.HasPrefix(bytes.TrimSpace(skills), []byte("null")) {
		d.EntriesProblem = "params.skills is not a JSON array: " + clipStr(string(skills), 120)
		return
	}
	for i, raw := range list {
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) != nil || m == nil {
			d.EntriesProblem = fmt.Sprintf("params.skills[%d] is not a JSON object: %s", i, clipStr(string(raw), 80))
			continue
		}
		e := Entry{Index: i, Members: m}
		_ = json.Unmarshal(m["id"], &e.ID)
		_ = json.Unmarshal(m["personEntry"], &e.PersonEntry)
		_ = json.Unmarshal(m["completion"], &e.Completion)
		e.AssistantAccess = bytes.Equal(bytes.TrimSpace(m["assistantAccess"]), []byte("true"))
		if v, ok := m["assistantAccess"]; ok {
			if t := string(bytes.TrimSpace(v)); t != "true" && t != "false" {
				e.TypeProblems = append(e.TypeProblems, "assistantAccess is "+clipStr(t, 40)+", not a boolean (OR-3.5)")
			}
		}
		if v, ok := m["completion"]; ok && e.Completion != CompletionInConversation && e.Completion != CompletionDeferred {
			e.TypeProblems = append(e.TypeProblems, "completion is "+clipStr(string(bytes.TrimSpace(v)), 40)+", neither \"in-conversation\" nor \"deferred\" (OR-3.6)")
			e.Completion = ""
			e.BadCompletion = true
		}
		d.Entries = append(d.Entries, e)
	}
}

// Entry returns the first entry with id.
func (d *Declaration) Entry(id string) (Entry, bool) {
	for _, e := range d.Entries {
		if e.ID == id && id != "" {
			return e, true
		}
	}
	return Entry{}, false
}

// PersonEntry kinds.
const (
	PersonEntryHTTPS = "https"
	PersonEntryTel   = "tel"
)

var telGlobal = regexp.MustCompile(`^tel:\+[0-9][0-9().\-]*[0-9]$`)

// CheckPersonEntry classifies a personEntry (OR-3.4): an absolute https URL with a host, or an RFC 3966 global
// tel: number. It returns the kind, or an error naming what is wrong.
func CheckPersonEntry(pe string) (string, error) {
	switch {
	case pe == "":
		return "", errors.New("personEntry is absent or empty")
	case strings.HasPrefix(pe, "tel:"):
		if !telGlobal.MatchString(pe) || len(Digits(pe)) < 5 {
			return "", fmt.Errorf("personEntry %q is not a global tel: number (tel:+<digits and separators>)", pe)
		}
		return PersonEntryTel, nil
	}
	u, err := url.Parse(pe)
	if err != nil {
		return "", fmt.Errorf("personEntry %q does not parse as a URL: %v", pe, err)
	}
	if u.Scheme != "https" || u.Host == "" || u.Opaque != "" {
		return "", fmt.Errorf("personEntry %q is neither an absolute https: URL nor a tel: number", pe)
	}
	return PersonEntryHTTPS, nil
}

// Digits keeps the digits of s ("tel:+1-202-555-0143" → "12025550143").
func Digits(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Origin is scheme://host[:port] of an absolute URL, lower-cased, default ports dropped ("" when not absolute).
func Origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return ""
	}
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if (u.Scheme == "https" && port == "443") || (u.Scheme == "http" && port == "80") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	return strings.ToLower(u.Scheme) + "://" + host
}

// circumstanceTerms are path tokens that reveal a person's circumstances (OR-3.8: "no path such as /bereavement").
// A word list, so the check is a screen: it catches the document's example and its kin, not every disclosure.
var circumstanceTerms = []string{
	"bereavement", "bereaved", "death", "dead", "died", "deceased", "dying", "funeral-of", "loss", "grief",
	"grieving", "widow", "widowed", "illness", "ill", "diagnosis", "cancer", "dementia", "terminal", "hospice",
	"pregnancy", "pregnant", "divorce", "separation", "debt", "bankruptcy", "eviction", "arrest", "custody",
	"abuse", "disability", "miscarriage", "stillbirth", "suicide", "overdose", "probate", "estate-of",
}

// CircumstanceTerms returns the word list OR-3.8b screens paths with.
func CircumstanceTerms() []string { return append([]string(nil), circumstanceTerms...) }

// PathCircumstancesFor is PathCircumstances less the terms that name the operator's own business: a word the
// operator uses of itself (provider organization, card name and description, its host names: "St Mary's
// Hospice", "Example Probate Solicitors") is the same for every caller (OR-3.8: "It is the same for every
// caller"), so it says nothing about the person.
func PathCircumstancesFor(pe string, extra []string, operatorWords string) []string {
	own := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(operatorWords), func(r rune) bool {
		return !unicode.IsLetter(r) && r != '-'
	}) {
		own[w] = true
		for _, p := range strings.Split(w, "-") {
			own[p] = true
		}
	}
	var out []string
	for _, t := range PathCircumstances(pe, extra) {
		if !own[t] {
			out = append(out, t)
		}
	}
	return out
}

// PathCircumstances returns the circumstance terms found in an https personEntry's path: each segment
// lower-cased, split on - _ . and matched whole (and the hyphenated terms against the whole segment).
func PathCircumstances(pe string, extra []string) []string {
	u, err := url.Parse(pe)
	if err != nil {
		return nil
	}
	terms := append(CircumstanceTerms(), extra...)
	var found []string
	for _, seg := range strings.Split(strings.ToLower(u.Path), "/") {
		if seg == "" {
			continue
		}
		tokens := strings.FieldsFunc(seg, func(r rune) bool { return r == '-' || r == '_' || r == '.' })
		for _, t := range terms {
			t = strings.ToLower(t)
			hit := strings.Contains(seg, t) && strings.Contains(t, "-")
			for _, tok := range tokens {
				hit = hit || tok == t
			}
			if hit && !slices.Contains(found, t) {
				found = append(found, t)
			}
		}
	}
	return found
}

// --- reading reply text ---

// ParseEntry reads one params.skills entry on its own (for a relay that kept the entry, not the card).
func ParseEntry(raw json.RawMessage) (Entry, error) {
	d := &Declaration{Params: json.RawMessage(`{"skills":[` + string(raw) + `]}`)}
	d.readEntries()
	if len(d.Entries) != 1 {
		return Entry{}, fmt.Errorf("entry %s: %s", clipStr(string(raw), 80), d.EntriesProblem)
	}
	return d.Entries[0], nil
}
