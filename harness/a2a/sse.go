package a2a

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// SSEEvent is one dispatched server-sent event.
type SSEEvent struct {
	Type string // "event:" field, "" when absent (the default "message")
	ID   string // last "id:" seen
	Data []byte // "data:" lines joined with "\n"
}

// ReadSSE parses an event stream (WHATWG "server-sent events") from r, calling fn for each event.
// It stops at EOF (a final event without its blank line is dropped, as the standard says), on a read error,
// when an event's data exceeds maxEvent bytes, or when more than maxEvents events arrive.
func ReadSSE(r io.Reader, maxEvent, maxEvents int, fn func(SSEEvent)) error {
	sc := bufio.NewScanner(r)
	// A line can hold at most one event's data plus its field name.
	sc.Buffer(make([]byte, 0, 4096), maxEvent+64)
	sc.Split(scanSSELines)

	var (
		data    []byte
		hasData bool
		typ, id string
		n       int
		first   = true
	)
	for sc.Scan() {
		line := sc.Bytes()
		if first {
			line = bytes.TrimPrefix(line, []byte("\xEF\xBB\xBF"))
			first = false
		}
		if len(line) == 0 {
			if hasData {
				n++
				if n > maxEvents {
					return &LimitError{Limit: LimitMaxSSEEvents, Detail: fmt.Sprintf("(%d events): stream sent more", maxEvents)}
				}
				fn(SSEEvent{Type: typ, ID: id, Data: data})
			}
			data, hasData, typ = nil, false, ""
			continue
		}
		if line[0] == ':' {
			continue // comment, often a keep-alive
		}
		field, value := line, []byte(nil)
		if i := bytes.IndexByte(line, ':'); i >= 0 {
			field, value = line[:i], line[i+1:]
			value = bytes.TrimPrefix(value, []byte(" "))
		}
		switch string(field) {
		case "data":
			if hasData {
				data = append(data, '\n')
			}
			if !hasData {
				data = make([]byte, 0, len(value)) // non-nil: an empty "data:" is an empty event, not a null one
			}
			data = append(data, value...)
			hasData = true
			if len(data) > maxEvent {
				return &LimitError{Limit: LimitMaxSSEEvent, Detail: fmt.Sprintf("(%d bytes): event %d's data is longer", maxEvent, n+1)}
			}
		case "event":
			typ = string(value)
		case "id":
			if bytes.IndexByte(value, 0) < 0 {
				id = string(value)
			}
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return &LimitError{Limit: LimitMaxSSEEvent, Detail: fmt.Sprintf("(%d bytes): a line of event %d is longer", maxEvent, n+1)}
		}
		return err
	}
	return nil
}

// scanSSELines splits on "\r\n", "\n" or a lone "\r", as the event-stream grammar allows.
func scanSSELines(data []byte, atEOF bool) (int, []byte, error) {
	if atEOF && len(data) == 0 {
		return 0, nil, nil
	}
	if i := bytes.IndexAny(data, "\r\n"); i >= 0 {
		if data[i] == '\n' {
			return i + 1, data[:i], nil
		}
		if i+1 < len(data) {
			if data[i+1] == '\n' {
				return i + 2, data[:i], nil
			}
			return i + 1, data[:i], nil
		}
		if atEOF {
			return i + 1, data[:i], nil
		}
		return 0, nil, nil // a "\r" at the end: wait to see whether "\n" follows
	}
	if atEOF {
		return len(data), data, nil
	}
	return 0, nil, nil
}
