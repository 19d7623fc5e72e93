package onrequest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/target"
	vonrequest "github.com/extconf/extconf/refclients/onrequest"
)

// statement is what the operator states for the harness: facts no card or exchange shows (which origins and
// numbers are its own, its attestation level, whether staff can be reached), its consent to test actions, the
// values it gives on request, and its test endpoints. The target names it with the role on-request.operator (an
// https URL, or a data:application/json URL). Every member is optional; a spec that needs a missing one is blocked.
type statement struct {
	// OperatorOrigins are origins the operator controls (the card's own origin counts without being listed).
	OperatorOrigins []string `json:"operatorOrigins,omitempty"`
	// OperatorPhones are the numbers answered by or for the operator, compared by digits; [] states none.
	OperatorPhones []string `json:"operatorPhones,omitempty"`
	// AttestationLevel is the operator's level under the Agent Capability trust framework.
	AttestationLevel *int `json:"attestationLevel,omitempty"`
	// StaffReachable is false when nobody can be reached through the agent.
	StaffReachable *bool `json:"staffReachable,omitempty"`
	// ConsentToActions true lets the harness ask for actions (bookings, callbacks, notices); without it no
	// action row is probed.
	ConsentToActions bool `json:"consentToActions,omitempty"`
	// ActionSkills are skill ids that change something although their entry has no completion ([]: none).
	ActionSkills []string `json:"actionSkills,omitempty"`
	// Values: skill id → what the operator gives on request ("GBP 1,950"); only these count when stated.
	Values map[string][]string `json:"values,omitempty"`
	// ActionLog is the URL of {"actions": [{taskId, skillId, person, state, staffMember, irreversibleDone}]}.
	ActionLog string `json:"actionLog,omitempty"`
	// Reverse is the URL the staff's reversal is POSTed to, body {"taskId": …}.
	Reverse string `json:"reverse,omitempty"`
	// Limits are the operator's limits on actions per assistant and in total.
	Limits *limits `json:"limits,omitempty"`
	// Irreversible: skill id → the step that cannot be undone ({} for none).
	Irreversible map[string]string `json:"irreversible,omitempty"`
	// PersonConfirmation "post": the person confirms by submitting the confirmation page.
	PersonConfirmation string `json:"personConfirmation,omitempty"`
	// CircumstanceTerms are extra words OR-3.8b looks for in personEntry paths.
	CircumstanceTerms []string `json:"circumstanceTerms,omitempty"`
	// PersonActions are the action skills the person must carry out themselves (OR-3.4e); absent: those without
	// assistantAccess true.
	PersonActions []string `json:"personActions,omitempty"`
	// CountryCode is the operator's country calling code ("+1"), for numbers a reply writes in national format.
	CountryCode string `json:"countryCode,omitempty"`
	// Phrases extend the wording lexicon (verify/onrequest PhraseKeys: operatorGives, denial, notDone, later,
	// nobodyReachable, route, done), Go regular expressions matched case-insensitively.
	Phrases map[string][]string `json:"phrases,omitempty"`
}

type limits struct {
	// PerAssistant is how many actions one assistant may ask for in the window.
	PerAssistant int `json:"perAssistant"`
	// Total is how many actions all assistants together may ask for in the window.
	Total int `json:"total"`
	// WindowSeconds is the window the limits are counted in; 0: unknown (the whole run counts).
	WindowSeconds int `json:"windowSeconds,omitempty"`
}

// allValues lists every value the operator gives on request.
func (st *statement) allValues() []string {
	var out []string
	for _, vs := range st.Values {
		out = append(out, vs...)
	}
	return out
}

func (st *statement) isActionSkill(id string) bool {
	for _, s := range st.ActionSkills {
		if s == id {
			return true
		}
	}
	return false
}

// suite is one run's state: the environment and the client for operator endpoints.
type suite struct {
	e *harness.Env

	once   sync.Once
	op     *a2a.Client
	mu     sync.Mutex
	stated map[string]bool // origins the operator statement names (its origins, action log, reversal)
	st     *statement      // the operator statement, once read
	lx     *lexicon
	// performed counts the harness's own requests, per skill, that the agent did not refuse while acting for a
	// person: what the operator's limits on repeated requests may already have counted (OR-5.7e/f).
	performed map[string][]time.Time
}

// countRequest records one request of the harness's that an agent may count against its limits.
func (s *suite) countRequest(skill string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.performed == nil {
		s.performed = map[string][]time.Time{}
	}
	s.performed[skill] = append(s.performed[skill], time.Now())
}

// requestsSince counts the harness's requests for skill within the window (0: the whole run).
func (s *suite) requestsSince(skill string, window time.Duration) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, t := range s.performed[skill] {
		if window == 0 || time.Since(t) < window {
			n++
		}
	}
	return n
}

// opClient is the recording client for the operator's pages and endpoints (personEntry, action log, reversal,
// confirmation page), on the run's transcript. It follows the run's reach rule, widened only by the origins the
// operator itself states; against the reference mocks it refuses anything but loopback before dialing.
func (s *suite) opClient() *a2a.Client {
	s.once.Do(func() {
		mock := s.e.Target.Kind == target.KindMock
		s.op = s.e.NewClient(a2a.Options{Limits: s.e.Client.Limits(), RootCAs: s.e.Target.RootCAs,
			Recorder: s.e.Client.Recorder(), CheckURL: func(u *url.URL) error {
				ip := net.ParseIP(u.Hostname())
				loopback := u.Hostname() == "localhost" || (ip != nil && ip.IsLoopback())
				if mock && !loopback {
					return errors.New("the reference run talks to loopback only")
				}
				return nil
			}}, func(u *url.URL) bool { // the operator's stated origins widen the run's reach for this client
			s.mu.Lock()
			defer s.mu.Unlock()
			return s.stated[vonrequest.Origin(u.String())]
		})
	})
	return s.op
}

// allowStated records the origins the operator statement names as reachable for the operator client.
func (s *suite) allowStated(st *statement) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stated == nil {
		s.stated = map[string]bool{}
	}
	for _, u := range append(append([]string{}, st.OperatorOrigins...), st.ActionLog, st.Reverse) {
		if o := vonrequest.Origin(u); o != "" {
			s.stated[o] = true
		}
	}
}

// loadStatement reads the operator statement; nil when the target names none.
func (s *suite) loadStatement(w *harness.W, row string) *statement {
	s.mu.Lock()
	cached := s.st
	s.mu.Unlock()
	if cached != nil {
		return cached
	}
	if st := s.inlineStatement(); st != nil { // documents.on-request.operator, decoded strictly with the file
		s.allowStated(st)
		s.mu.Lock()
		s.st = st
		s.mu.Unlock()
		return st
	}
	u, ok := s.e.Target.CardURL(roleOperator)
	if !ok {
		return nil
	}
	var body []byte
	switch {
	case strings.HasPrefix(u, "data:"):
		b, err := decodeDataURL(u)
		if err != nil {
			w.Blocked("the operator statement (role " + roleOperator + ") is not a readable data: URL: " + err.Error())
		}
		body = b
	default:
		b, ex, err := s.opClient().FetchJSON(w.Ctx(), u, a2a.Call{Note: row + ": operator statement"})
		if err != nil {
			w.Blocked(fmt.Sprintf("the operator statement (role %s) cannot be fetched: %v (%s)", roleOperator, err, ex.Summary()))
		}
		body = b
	}
	var st statement
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields() // a misspelt member must not silently block or pass a row
	if err := dec.Decode(&st); err != nil {
		w.Blocked(fmt.Sprintf("the operator statement (role %s) does not decode: %v (see suites/onrequest/README.md)", roleOperator, err))
	}
	s.allowStated(&st)
	s.mu.Lock()
	s.st = &st
	s.mu.Unlock()
	return &st
}

// requireStatement is loadStatement, blocked when the target names no statement.
// member is the row's entry in the Needs table, so that an operator's absence declaration ends it inapplicable.
func (s *suite) requireStatement(w *harness.W, row, member, need string) *statement {
	st := s.loadStatement(w, row)
	w.Need(member, st != nil, fmt.Sprintf("%s: the operator must state it; write the operator statement in documents.on-request.operator (or, legacy, name it with the role %q in agents; see suites/onrequest/README.md)", need, roleOperator))
	return st
}

// requireConsent blocks action specs unless the operator consents to test actions.
func (s *suite) requireConsent(w *harness.W, row string) *statement {
	st := s.loadStatement(w, row)
	if st == nil || !st.ConsentToActions {
		if _, other := s.e.Target.CardURL(roleUnattested); !other {
			a := s.loadAgent(w, roleMain, row)
			if len(a.skillEntries(w, func(e vonrequest.Entry) bool { return isAction(e, st) })) == 0 {
				w.Inapplicable("the card declares no action (no params.skills entry has completion and the operator's actionSkills names none): there is nothing to ask for, so no consent is needed")
			}
		}
		w.Need("operator.consentToActions", false, `the operator has not consented to test actions ("consentToActions": true in the operator statement); action rows are not probed without it`)
	}
	return st
}

func decodeDataURL(u string) ([]byte, error) {
	rest := strings.TrimPrefix(u, "data:")
	meta, data, ok := strings.Cut(rest, ",")
	if !ok {
		return nil, errors.New("no comma")
	}
	if strings.HasSuffix(meta, ";base64") {
		return base64.StdEncoding.DecodeString(data)
	}
	s, err := url.PathUnescape(data)
	return []byte(s), err
}

// loggedAction is one entry of the operator's action log.
type loggedAction struct {
	TaskID           string `json:"taskId"`
	SkillID          string `json:"skillId"`
	Person           string `json:"person"`
	State            string `json:"state"`
	StaffMember      string `json:"staffMember"`
	IrreversibleDone bool   `json:"irreversibleDone"`
}

// actionLog reads the operator's action log and returns the entries for a task or a person.
func (s *suite) actionLog(w *harness.W, row string, st *statement, taskID, person string) ([]loggedAction, *a2a.Exchange) {
	b, ex, err := s.opClient().FetchJSON(w.Ctx(), st.ActionLog, a2a.Call{Note: row + ": operator action log"})
	if err != nil {
		w.Blocked(fmt.Sprintf("the operator's action log %s cannot be read: %v (%s)", st.ActionLog, err, ex.Summary()))
	}
	var doc struct {
		Actions []loggedAction `json:"actions"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		w.Blocked(fmt.Sprintf(`the operator's action log %s is not {"actions": […]}: %v`, st.ActionLog, err))
	}
	var out []loggedAction
	for _, a := range doc.Actions {
		if (taskID != "" && a.TaskID == taskID) || (person != "" && a.Person == person) {
			out = append(out, a)
		}
	}
	return out, ex
}

// operatorOrigin reports whether raw is on an origin the operator controls: the card's own origin (it serves the
// operator's card) or one the statement lists.
func operatorOrigin(raw, cardURL string, st *statement) bool {
	o := vonrequest.Origin(raw)
	if o == "" {
		return false
	}
	if o == vonrequest.Origin(cardURL) {
		return true
	}
	if st != nil {
		for _, x := range st.OperatorOrigins {
			if vonrequest.Origin(x) == o {
				return true
			}
		}
	}
	return false
}

// getPage GETs an operator page through the operator client.
func (s *suite) getPage(w *harness.W, row, u string) (*a2a.Exchange, error) {
	ex, err := s.opClient().HTTP(w.Ctx(), http.MethodGet, u, nil, a2a.Call{Note: row + ": GET " + u, OmitVersion: true})
	if err == nil && (ex.Status < 200 || ex.Status > 299) {
		err = fmt.Errorf("HTTP %d", ex.Status)
	}
	return ex, err
}
