package a2a

import (
	"errors"
	"fmt"
	"net"
	"sync"
	"syscall"
)

// ErrCircuitOpen marks a request not sent because its origin stopped answering: after breakerTrips consecutive
// exchanges that did not complete (refused, unreachable, or not done within their deadline: headers trickled, a
// body at 1 byte/s, a stream that delivered no event), the rest of that origin's exchanges fail at once with one
// message, so a dead or half-dead target ends a run in seconds. A card GET that answers does not close the circuit
// again: a card server in front of an agent whose every POST hangs is still a dead agent.
var ErrCircuitOpen = errors.New("not sent: the origin stopped answering")

const breakerTrips = 3

type breaker struct {
	mu   sync.Mutex
	dead map[string]*deadOrigin
}

type deadOrigin struct {
	n    int
	last string
}

func newBreaker() *breaker { return &breaker{dead: map[string]*deadOrigin{}} }

// before refuses a request to an origin whose circuit is open.
func (b *breaker) before(origin string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if d := b.dead[origin]; d != nil && d.n >= breakerTrips {
		return fmt.Errorf("%w: %s failed %d consecutive exchanges with no complete response in time (last: %s)", ErrCircuitOpen, origin, d.n, d.last)
	}
	return nil
}

// after records an exchange's outcome: one that completed (any answer, in time) closes the circuit again, unless
// it was a GET.
func (b *breaker) after(origin string, ex *Exchange, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err == nil || !(NoResponse(err) || stalled(err, ex)) {
		if ex == nil || ex.Method != "GET" {
			delete(b.dead, origin)
		}
		return
	}
	d := b.dead[origin]
	if d == nil {
		d = &deadOrigin{}
		b.dead[origin] = d
	}
	d.n++
	d.last = err.Error()
}

// NoResponse reports whether err means the origin gave nothing at all (not a refusal by the harness's own rules).
func NoResponse(err error) bool {
	if errors.Is(err, ErrCircuitOpen) {
		return true
	}
	var le *LimitError
	if errors.As(err, &le) {
		return le.Limit == LimitConnectTimeout || le.Limit == LimitCallTimeout
	}
	if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.EHOSTUNREACH) || errors.Is(err, syscall.ENETUNREACH) {
		return true
	}
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// stalled: the exchange ran into its deadline, whatever it received before (a status, some body bytes), or a
// stream delivered no event before its deadline.
func stalled(err error, ex *Exchange) bool {
	var le *LimitError
	if !errors.As(err, &le) {
		return false
	}
	switch le.Limit {
	case LimitCallTimeout, LimitConnectTimeout:
		return true
	case LimitStreamTimeout:
		return ex == nil || len(ex.Events) == 0
	}
	return false
}
