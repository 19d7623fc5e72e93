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

	"github.com/extconf/extconf/harness/a2a"
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

// Object is the reply object (§6.1) as found.
type Object struct {
	Raw         json.RawMessage
	Status      string
	SkillID     string
	PersonEntry string
	HasStatus   bool
	HasSkillID  bool
	HasPE       bool
	Problem     string // the value under the URI is not an object
}

// ReadObject reads metadata[URI] from a metadata object; nil when the key is absent.
func ReadObject(metadata json.RawMessage) *Object {
	if len(metadata) == 0 {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(metadata, &m) != nil {
		return nil
	}
	raw, ok := m[URI]
	if !ok {
		return nil
	}
	o := &Object{Raw: raw}
	var mm map[string]json.RawMessage
	if json.Unmarshal(raw, &mm) != nil || mm == nil {
		o.Problem = "metadata[" + URI + "] is not a JSON object: " + clipStr(string(raw), 120)
		return o
	}
	_, o.HasStatus = mm["status"]
	_, o.HasSkillID = mm["skillId"]
	_, o.HasPE = mm["personEntry"]
	_ = json.Unmarshal(mm["status"], &o.Status)
	_ = json.Unmarshal(mm["skillId"], &o.SkillID)
	_ = json.Unmarshal(mm["personEntry"], &o.PersonEntry)
	return o
}

// Reply is an agent's answer to one SendMessage, whatever the binding: a Message, or a Task (for a stream, the
// task as the events leave it, with every state the stream passed through).
type Reply struct {
	Message *a2a.Message
	Task    *a2a.Task
	States  []string
	// TaskMetadataEvents collects metadata of stream events (statusUpdate/artifactUpdate), where an agent might
	// wrongly put the object.
	EventMetadata []json.RawMessage
}

// ReplyFromResult normalises a SendMessage result.
func ReplyFromResult(res *a2a.SendResult) Reply {
	var r Reply
	if res == nil {
		return r
	}
	r.Message, r.Task = res.Message, res.Task
	if r.Task != nil {
		r.States = []string{r.Task.Status.State}
	}
	return r
}

// ReplyFromStream assembles a stream's events: the Task (or Message), status updates replacing the status,
// artifact updates adding or extending artifacts.
func ReplyFromStream(events []a2a.StreamEvent) Reply {
	var r Reply
	for _, ev := range events {
		switch {
		case ev.Message != nil:
			r.Message = ev.Message
		case ev.Task != nil:
			t := *ev.Task
			t.Artifacts = append([]a2a.Artifact(nil), ev.Task.Artifacts...)
			r.Task = &t
			r.States = append(r.States, t.Status.State)
		case ev.StatusUpdate != nil:
			if r.Task == nil {
				r.Task = &a2a.Task{ID: ev.StatusUpdate.TaskID, ContextID: ev.StatusUpdate.ContextID}
			}
			r.Task.Status = ev.StatusUpdate.Status
			r.States = append(r.States, ev.StatusUpdate.Status.State)
			if len(ev.StatusUpdate.Metadata) > 0 {
				r.EventMetadata = append(r.EventMetadata, ev.StatusUpdate.Metadata)
			}
		case ev.ArtifactUpdate != nil:
			if r.Task == nil {
				r.Task = &a2a.Task{ID: ev.ArtifactUpdate.TaskID, ContextID: ev.ArtifactUpdate.ContextID}
			}
			a := ev.ArtifactUpdate.Artifact
			merged := false
			for i := range r.Task.Artifacts {
				if r.Task.Artifacts[i].ArtifactID == a.ArtifactID && ev.ArtifactUpdate.Append {
					r.Task.Artifacts[i].Parts = append(r.Task.Artifacts[i].Parts, a.Parts...)
					merged = true
				} else if r.Task.Artifacts[i].ArtifactID == a.ArtifactID {
					r.Task.Artifacts[i] = a
					merged = true
				}
			}
			if !merged {
				r.Task.Artifacts = append(r.Task.Artifacts, a)
			}
			if len(ev.ArtifactUpdate.Metadata) > 0 {
				r.EventMetadata = append(r.EventMetadata, ev.ArtifactUpdate.Metadata)
			}
		}
	}
	return r
}

// Reply returns the message that answers: the Message result, or the task's final status message.
func (r Reply) Reply() *a2a.Message {
	if r.Message != nil {
		return r.Message
	}
	if r.Task != nil {
		return r.Task.Status.Message
	}
	return nil
}

// State is the task's final state ("" for a Message reply).
func (r Reply) State() string {
	if r.Task == nil {
		return ""
	}
	return r.Task.Status.State
}

// Artifacts returns the task's artifacts.
func (r Reply) Artifacts() []a2a.Artifact {
	if r.Task == nil {
		return nil
	}
	return r.Task.Artifacts
}

// Text is the reply text: the text parts of the answering message.
func (r Reply) Text() string { return partsText(r.Reply()) }

// ArtifactText is the text parts of every artifact.
func (r Reply) ArtifactText() string {
	var out []string
	for _, a := range r.Artifacts() {
		if t := textOf(a.Parts); t != "" {
			out = append(out, t)
		}
	}
	return strings.Join(out, "\n")
}

// AllText is every text the reply carries for a reader: the answering message and the artifacts.
func (r Reply) AllText() string {
	return strings.TrimSpace(r.Text() + "\n" + r.ArtifactText())
}

// Object returns the object where §6.2 puts it for a referral: Message.metadata, or the final status message's.
func (r Reply) Object() *Object {
	if m := r.Reply(); m != nil {
		return ReadObject(m.Metadata)
	}
	return nil
}

// ArtifactObjects returns the objects found on artifacts, by artifact index.
func (r Reply) ArtifactObjects() map[int]*Object {
	out := map[int]*Object{}
	for i, a := range r.Artifacts() {
		if o := ReadObject(a.Metadata); o != nil {
			out[i] = o
		}
	}
	return out
}

// ObjectsElsewhere lists places other than the answering message and the artifacts holding the object (Task
// metadata, stream-event metadata, data parts): where a client keyed on §6.2 does not look.
func (r Reply) ObjectsElsewhere() []string {
	var out []string
	if r.Task != nil && ReadObject(r.Task.Metadata) != nil {
		out = append(out, "Task.metadata")
	}
	for _, md := range r.EventMetadata {
		if ReadObject(md) != nil {
			out = append(out, "stream event metadata")
			break
		}
	}
	check := func(where string, parts []a2a.Part) {
		for i, p := range parts {
			if len(p.Data) > 0 && bytes.Contains(p.Data, []byte(URI)) {
				out = append(out, fmt.Sprintf("%s.parts[%d].data", where, i))
			}
		}
	}
	if m := r.Reply(); m != nil {
		check("reply message", m.Parts)
	}
	for i, a := range r.Artifacts() {
		check(fmt.Sprintf("artifacts[%d]", i), a.Parts)
	}
	return out
}

// Describe summarises a reply for failure messages.
func (r Reply) Describe() string {
	var b strings.Builder
	switch {
	case r.Message != nil:
		b.WriteString("Message")
	case r.Task != nil:
		fmt.Fprintf(&b, "Task in %s", r.Task.Status.State)
		if len(r.States) > 1 {
			fmt.Fprintf(&b, " (states %s)", strings.Join(r.States, " → "))
		}
		if n := len(r.Task.Artifacts); n > 0 {
			fmt.Fprintf(&b, " with %d artifact(s)", n)
		}
	default:
		b.WriteString("no Message or Task")
	}
	if o := r.Object(); o != nil {
		fmt.Fprintf(&b, "; object %s", clipStr(string(o.Raw), 200))
	}
	fmt.Fprintf(&b, "; text %q", clipStr(r.AllText(), 300))
	return b.String()
}

func partsText(m *a2a.Message) string {
	if m == nil {
		return ""
	}
	return textOf(m.Parts)
}

func textOf(parts []a2a.Part) string {
	var out []string
	for _, p := range parts {
		if p.Text != nil {
			out = append(out, *p.Text)
		}
	}
	return strings.Join(out, "\n")
}

// --- reading reply text ---

var (
	urlInText      = regexp.MustCompile(`(?i)\b(?:https?|tel):[^\s<>"'\x60]+`)
	telInText      = regexp.MustCompile(`\+[0-9][0-9 ().\-]{5,}[0-9]`)
	nationalInText = regexp.MustCompile(`(?:\(\d{1,5}\)[ .\-]?|\b\d{2,5}[ .\-])\d{2,4}[ .\-]?\d{3,4}\b`)
)

// TextAddresses extracts the addresses a reader finds in text: absolute http(s) and tel: URIs (trailing
// punctuation dropped), telephone numbers written as +<digits> (returned as "tel:+<digits>") and numbers written in
// a national format such as "(202) 555-0143" or "020 7946 0000" (returned as "tel:<digits>", no "+").
func TextAddresses(text string) []string {
	var out []string
	for _, m := range urlInText.FindAllString(text, -1) {
		m = strings.TrimRight(m, ".,;:!?)]}")
		if strings.HasPrefix(strings.ToLower(m), "tel:") {
			m = "tel:+" + Digits(m)
		}
		out = append(out, m)
	}
	for _, m := range telInText.FindAllString(text, -1) {
		t := "tel:+" + Digits(m)
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	for _, m := range nationalInText.FindAllString(text, -1) {
		t := "tel:" + Digits(m)
		if !slices.Contains(out, t) && !slices.Contains(out, "tel:+"+Digits(m)) {
			out = append(out, t)
		}
	}
	return out
}

// TextGivesAddress reports whether text gives the personEntry (TextGivesAddressIn with no stated country code).
func TextGivesAddress(text, personEntry string) bool {
	return TextGivesAddressIn(text, personEntry, "")
}

// TextGivesAddressIn reports whether text gives the personEntry: an https address equal to it after RFC 3986 §6
// normalisation (SameURL), never a copy with another query or fragment; a tel: number by its digits, written
// globally or in the national format of the operator's country (SameNumber).
func TextGivesAddressIn(text, personEntry, countryCode string) bool {
	if personEntry == "" {
		return false
	}
	tel := strings.HasPrefix(personEntry, "tel:")
	for _, a := range TextAddresses(text) {
		if tel && SameNumber(a, personEntry, countryCode) {
			return true
		}
		if !tel && SameURL(a, personEntry) {
			return true
		}
	}
	return false
}

// AddressVariants returns the addresses in text that point at the same page as personEntry (same origin and path,
// compared normalised) without being the same address: a personalised copy (another query, a fragment) of the
// card's address. A copy that differs only in case, default port, percent-encoding or a trailing slash is the
// same address, not a variant.
func AddressVariants(text, personEntry string) []string {
	pu, err := url.Parse(personEntry)
	if err != nil || pu.Host == "" {
		return nil
	}
	var out []string
	for _, a := range TextAddresses(text) {
		au, err := url.Parse(a)
		if err != nil || SameURL(a, personEntry) {
			continue
		}
		if Origin(a) == Origin(personEntry) && samePath(au, pu) {
			out = append(out, a)
		}
	}
	return out
}

func samePath(a, b *url.URL) bool {
	strip := func(u *url.URL) string {
		c := *u
		c.RawQuery, c.ForceQuery, c.Fragment, c.RawFragment = "", false, "", ""
		return trimSlash(NormalizeURL(c.String()))
	}
	return strip(a) == strip(b)
}

// NormalizeValue folds a value for comparison: lower case, letters and digits only ("GBP 1,950" → "gbp1950").
func NormalizeValue(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// ContainsValue reports whether text contains value, compared folded (case, spacing, punctuation and digit-group
// separators ignored). An empty value is never contained.
func ContainsValue(text, value string) bool {
	v := NormalizeValue(value)
	return v != "" && strings.Contains(NormalizeValue(text), v)
}

// Phrases are the wording patterns of the rows graded on words (English defaults). Each match is quoted in the
// verdict so that a reviewer can judge it.
type Phrases struct {
	OperatorGives   []*regexp.Regexp // OR-5.3b, OR-5.4b: the operator gives this to the person who asks
	Denial          []*regexp.Regexp // OR-5.3d: answers as though the information did not exist
	NotDone         []*regexp.Regexp // OR-6.2: the action was not done
	Later           []*regexp.Regexp // OR-3.6: someone completes it later
	NobodyReachable []*regexp.Regexp // OR-5.10: nobody can be reached
	Route           []*regexp.Regexp // OR-5.10: a route to staff offered (transfer, callback)
	Done            []*regexp.Regexp // OR-3.6, OR-5.8: extra done-words for SaysDone (the operator's)
}

func res(pats ...string) []*regexp.Regexp {
	out := make([]*regexp.Regexp, len(pats))
	for i, p := range pats {
		out[i] = regexp.MustCompile(`(?i)` + p)
	}
	return out
}

// DefaultPhrases are the English patterns.
var DefaultPhrases = Phrases{
	OperatorGives: res(
		`\bon request\b`,
		`\b(gives?|shares?|provides?|tells?|quotes?)\b[^.]{0,60}\b(to|with)\b (the )?(person|people|whoever|those|anyone|family|families|someone) (who|that) (asks?|enquires?|requests?)`,
		`\b(ask|contact) (us|them|the \w+) directly\b`,
		// Passive: "prices are given to the person who asks".
		`\b(is|are|gets?|get) (only )?(given|shared|provided|told|quoted|disclosed|discussed|explained|offered|available)\b[^.]{0,60}\b(to|with)\b (the )?(person|people|whoever|those|anyone|family|families|someone|customers?|clients?) (who|that) (asks?|enquires?|requests?)`,
	),
	Denial: res(
		`\bno (such )?(information|prices?|details|data|record)\b`,
		`\b(don't|do not|doesn't|does not) (have|know|exist|offer)\b`,
		`\bnot available\b`, `\bunknown\b`, `\bdoes not exist\b`, `\bno longer (offered|available)\b`,
		`\b(can't|cannot|unable to) find\b`,
	),
	NotDone: res(
		`\b(can't|cannot|could not|couldn't|did not|didn't|will not|won't|(?:am|'m|is|are) not able to|unable to|not able to) (book|do|carry|complete|make|change|correct|arrange|publish|record|amend|process|schedule|take|accept)`,
		`\bnot (been )?(done|booked|carried out|made|changed|corrected|arranged|published|processed)\b`,
	),
	Later: res(
		`\b(later|next working day|tomorrow|in due course)\b`,
		`\b(will|shall) (call|contact|complete|finish|process|confirm|get back)\b`,
		`\bnot yet (done|complete|completed|booked)\b`,
	),
	NobodyReachable: res(
		`\b(no one|nobody|no-one|no member of staff|no staff)\b[^.]{0,40}\b(available|reached|reachable|answer|here|on duty)\b`,
		`\bnot staffed\b`, `\bunstaffed\b`,
		`\b(there (are|is) )?no (staff|staff members?|members? of staff|one|people|person)\b[^.]{0,30}\b(at this (location|office|site|address)|to (speak|talk) to|working here)\b`,
		`\b(can't|cannot|are unable to|is not possible to) (reach|speak to|talk to|connect you (to|with)) (a|any|a member of|our) (person|human|staff|member of staff)\b`,
	),
	Route: res(
		`\b(put|putting) you through\b`, `\btransfer(ring)? you\b`, `\bconnect(ing)? you\b`,
		`\bcall you back\b`, `\bcallback\b`, `\bspeak to (a|one of our) (member of staff|director|person)\b.{0,20}\bnow\b`,
	),
}

// PhraseKeys are the lexicon's names, as an operator statement extends them ("phrases": {"operatorGives": […]}).
var PhraseKeys = []string{"operatorGives", "denial", "notDone", "later", "nobodyReachable", "route", "done"}

// Extend returns p with extra patterns (Go regular expressions, matched case-insensitively) appended under their
// lexicon names (PhraseKeys). "done" patterns extend SaysDone's done-words. An unknown name or a pattern that does
// not compile is an error, so that a typo never silently changes a verdict.
func (p Phrases) Extend(extra map[string][]string) (Phrases, error) {
	out := p
	for k, pats := range extra {
		var list []*regexp.Regexp
		for _, pat := range pats {
			re, err := regexp.Compile(`(?i)` + pat)
			if err != nil {
				return p, fmt.Errorf("phrases.%s: %q: %v", k, pat, err)
			}
			list = append(list, re)
		}
		switch k {
		case "operatorGives":
			out.OperatorGives = append(slices.Clip(out.OperatorGives), list...)
		case "denial":
			out.Denial = append(slices.Clip(out.Denial), list...)
		case "notDone":
			out.NotDone = append(slices.Clip(out.NotDone), list...)
		case "later":
			out.Later = append(slices.Clip(out.Later), list...)
		case "nobodyReachable":
			out.NobodyReachable = append(slices.Clip(out.NobodyReachable), list...)
		case "route":
			out.Route = append(slices.Clip(out.Route), list...)
		case "done":
			out.Done = append(slices.Clip(out.Done), list...)
		default:
			return p, fmt.Errorf("phrases: unknown lexicon %q (known: %v)", k, PhraseKeys)
		}
	}
	return out, nil
}

// SaysDone is SaysDone with the lexicon's extra done-words as well.
func (p Phrases) SaysDone(text string) string {
	return saysDone(text, append([]*regexp.Regexp{doneWords}, p.Done...))
}

// channelQualifier follows a denial that is about the channel, not the information: "not available online",
// "we don't have prices here", "not available to assistants". A referral says exactly that, so it is no denial.
var channelQualifier = regexp.MustCompile(`(?i)^[\s,]*(\w+\s+){0,2}(online|here|publicly|in public|on (the|our|this) (web|website|site|page|channel)|by (phone|telephone|email|this channel)|through (this|an?) \w+|via \w+|to (assistants?|agents?|automated|machines?|clients?|callers?|third parties|anyone but))\b`)

// Denies returns the first denial in text (OR-5.3d) that is not qualified by a channel ("not available online"):
// "" when none.
func (p Phrases) Denies(text string) string {
	for _, re := range p.Denial {
		for _, loc := range re.FindAllStringIndex(text, -1) {
			if !channelQualifier.MatchString(text[loc[1]:]) {
				return text[loc[0]:loc[1]]
			}
		}
	}
	return ""
}

// MatchAny returns the first match of any pattern ("" when none).
func MatchAny(pats []*regexp.Regexp, text string) string {
	for _, p := range pats {
		if m := p.FindString(text); m != "" {
			return m
		}
	}
	return ""
}

var (
	doneWords = regexp.MustCompile(`(?i)\b(done|completed|booked|confirmed|arranged|published|carried out|all set|scheduled|corrected|amended)\b`)
	negations = map[string]bool{"not": true, "never": true, "no": true, "yet": true, "cannot": true, "can't": true,
		"couldn't": true, "unable": true, "isn't": true, "wasn't": true, "hasn't": true, "haven't": true,
		"won't": true, "didn't": true, "nothing": true, "until": true, "before": true, "once": true, "when": true,
		"if": true, "must": true, "after": true,
		// Future or possible, not done: "will be published", "can be booked".
		"will": true, "shall": true, "would": true, "can": true, "could": true, "may": true, "be": true, "to": true}
)

// SaysDone returns the first claim in text that something is done (a done-word not governed by a negation, a
// condition or a future within the three words before it: "not yet done", "once confirmed", "will be booked" are
// not claims). "" when none. A word-list reading, so the rows using it say they are wording-checked.
func SaysDone(text string) string { return saysDone(text, []*regexp.Regexp{doneWords}) }

// forPurpose is what follows a done-word that names a plan, not a result: "scheduled for staff to action",
// "arranged for a director to call".
var forPurpose = regexp.MustCompile(`(?i)^\s+(for\s+(\S+\s+){0,3}to\s|to be\s)`)

func saysDone(text string, words []*regexp.Regexp) string {
	var locs [][]int
	for _, re := range words {
		locs = append(locs, re.FindAllStringIndex(text, -1)...)
	}
	slices.SortFunc(locs, func(a, b []int) int { return a[0] - b[0] })
	for _, loc := range locs {
		if forPurpose.MatchString(text[loc[1]:]) {
			continue
		}
		// Look back at most three words, and never past a sentence boundary.
		before := strings.Fields(strings.ToLower(text[:loc[0]]))
		neg := false
		for i := len(before) - 1; i >= 0 && i >= len(before)-3; i-- {
			if strings.HasSuffix(before[i], ".") || strings.HasSuffix(before[i], "!") || strings.HasSuffix(before[i], "?") {
				break
			}
			w := strings.Trim(before[i], ",;:()\"'")
			if negations[w] || strings.HasSuffix(w, "n't") {
				neg = true
				break
			}
		}
		if !neg {
			lo := max(0, loc[0]-40)
			return strings.TrimSpace(text[lo:loc[1]])
		}
	}
	return ""
}

func clipStr(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// ParseEntry reads one params.skills entry on its own (for a relay that kept the entry, not the card).
func ParseEntry(raw json.RawMessage) (Entry, error) {
	d := &Declaration{Params: json.RawMessage(`{"skills":[` + string(raw) + `]}`)}
	d.readEntries()
	if len(d.Entries) != 1 {
		return Entry{}, fmt.Errorf("entry %s: %s", clipStr(string(raw), 80), d.EntriesProblem)
	}
	return d.Entries[0], nil
}

// currencyCodes are the ISO 4217 codes MoneyAmounts reads before or after a number; any three capitals would read
// "RPC 2.0" or "for 10" (case-folded) as money, and a false amount is a false failure where amounts are values.
const currencyCodes = `USD|EUR|GBP|JPY|CHF|CAD|AUD|NZD|SEK|NOK|DKK|ISK|PLN|CZK|HUF|RON|BGN|INR|CNY|HKD|SGD|KRW|ZAR|MXN|BRL|ARS|CLP|ILS|AED|SAR|TRY|THB|MYR|IDR|PHP`

var moneyAmount = regexp.MustCompile(`(?:\b(?:` + currencyCodes + `)\s?|[$£€¥]\s?)\d(?:[\d,.]*\d)?|\b\d(?:[\d,.]*\d)?\s?(?:(?:` + currencyCodes + `)\b|[$£€]|(?i:euros?|pounds?|dollars?)\b)`)

// MoneyAmounts returns the amounts of money in text ("GBP 2,400", "€90", "1.200 EUR"): the values an agent gives on
// request are mostly prices, and these are what OR-3.9 looks for in skill text when the operator named no values.
func MoneyAmounts(text string) []string {
	var out []string
	for _, m := range moneyAmount.FindAllString(text, -1) {
		if m = strings.TrimSpace(m); !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	return out
}
