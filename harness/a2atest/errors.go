package a2atest

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/extconf/extconf/harness/a2a"
)

// ErrorInfoType is the @type of a google.rpc.ErrorInfo detail; ErrorDomain is the domain of every A2A error.
const (
	ErrorInfoType = "type.googleapis.com/google.rpc.ErrorInfo"
	ErrorDomain   = "a2a-protocol.org"
)

// Authentication and authorization failures have no JSON-RPC code in A2A 1.0 ("JSON-RPC custom error"); the core
// uses the codes of the official Go SDK (a2a-go/v2) and always pairs them with HTTP 401 / 403.
const (
	CodeUnauthenticated = -31401
	CodeUnauthorized    = -31403
)

// errorClass is one row of the error table: ErrorInfo reason, and the HTTP+JSON status (A2A 1.0.1 table).
type errorClass struct {
	reason string
	http   int
	status string
}

var errorTable = map[int]errorClass{
	a2a.CodeParseError:                {"PARSE_ERROR", http.StatusBadRequest, "INVALID_ARGUMENT"},
	a2a.CodeInvalidRequest:            {"INVALID_REQUEST", http.StatusBadRequest, "INVALID_ARGUMENT"},
	a2a.CodeMethodNotFound:            {"METHOD_NOT_FOUND", http.StatusNotFound, "NOT_FOUND"},
	a2a.CodeInvalidParams:             {"INVALID_PARAMS", http.StatusBadRequest, "INVALID_ARGUMENT"},
	a2a.CodeInternalError:             {"INTERNAL_ERROR", http.StatusInternalServerError, "INTERNAL"},
	a2a.CodeTaskNotFound:              {"TASK_NOT_FOUND", http.StatusNotFound, "NOT_FOUND"},
	a2a.CodeTaskNotCancelable:         {"TASK_NOT_CANCELABLE", http.StatusBadRequest, "FAILED_PRECONDITION"},
	a2a.CodePushNotSupported:          {"PUSH_NOTIFICATION_NOT_SUPPORTED", http.StatusBadRequest, "FAILED_PRECONDITION"},
	a2a.CodeUnsupportedOperation:      {"UNSUPPORTED_OPERATION", http.StatusBadRequest, "FAILED_PRECONDITION"},
	a2a.CodeContentTypeNotSupported:   {"CONTENT_TYPE_NOT_SUPPORTED", http.StatusBadRequest, "INVALID_ARGUMENT"},
	a2a.CodeInvalidAgentResponse:      {"INVALID_AGENT_RESPONSE", http.StatusInternalServerError, "INTERNAL"},
	a2a.CodeExtendedCardNotConfigured: {"EXTENDED_AGENT_CARD_NOT_CONFIGURED", http.StatusBadRequest, "FAILED_PRECONDITION"},
	a2a.CodeExtensionSupportRequired:  {"EXTENSION_SUPPORT_REQUIRED", http.StatusBadRequest, "FAILED_PRECONDITION"},
	a2a.CodeVersionNotSupported:       {"VERSION_NOT_SUPPORTED", http.StatusBadRequest, "FAILED_PRECONDITION"},
	CodeUnauthenticated:               {"UNAUTHENTICATED", http.StatusUnauthorized, "UNAUTHENTICATED"},
	CodeUnauthorized:                  {"UNAUTHORIZED", http.StatusForbidden, "PERMISSION_DENIED"},
}

// ErrorInfo is the google.rpc.ErrorInfo detail carried in error.data (JSON-RPC) and error.details (HTTP+JSON).
type ErrorInfo struct {
	Type     string            `json:"@type"`
	Reason   string            `json:"reason"`
	Domain   string            `json:"domain"`
	Metadata map[string]string `json:"metadata,omitempty"`
}

// Reason returns the ErrorInfo reason of an A2A or JSON-RPC error code ("" for codes outside the table).
func Reason(code int) string { return errorTable[code].reason }

// NewError returns a JSON-RPC error whose data is an array holding one ErrorInfo (reason from the code, domain
// a2a-protocol.org, the given metadata if any). Codes outside the table get no data.
func NewError(code int, message string, metadata map[string]string) *a2a.RPCError {
	e := &a2a.RPCError{Code: code, Message: message}
	if cl, ok := errorTable[code]; ok {
		e.Data = mustJSON([]ErrorInfo{{Type: ErrorInfoType, Reason: cl.reason, Domain: ErrorDomain, Metadata: metadata}})
	}
	return e
}

// errBodyTooLarge is answered with HTTP 413 on both bindings.
var errBodyTooLarge = NewError(a2a.CodeInvalidRequest, "request body exceeds 1 MiB", nil)

// Shorthands for the errors the core itself produces.
func errInvalidParams(msg string) *a2a.RPCError { return NewError(a2a.CodeInvalidParams, msg, nil) }
func errInternal(msg string) *a2a.RPCError      { return NewError(a2a.CodeInternalError, msg, nil) }
func errTaskNotFound(id string) *a2a.RPCError {
	return NewError(a2a.CodeTaskNotFound, "task not found", map[string]string{"taskId": id})
}
func errUnsupported(msg string) *a2a.RPCError {
	return NewError(a2a.CodeUnsupportedOperation, msg, nil)
}

// normalizeErr fills error.data with the standard ErrorInfo when the agent left it empty and the code is known;
// agents that want data-less errors on the wire use Reply.RawBody.
func normalizeErr(e *a2a.RPCError) *a2a.RPCError {
	if e == nil || len(e.Data) > 0 {
		return e
	}
	if _, ok := errorTable[e.Code]; !ok {
		return e
	}
	n := NewError(e.Code, e.Message, nil)
	return n
}

// restError renders an error as google.rpc.Status JSON for the HTTP+JSON binding. status overrides the mapped
// HTTP status when non-zero.
func restError(e *a2a.RPCError, status int) (int, []byte) {
	cl, ok := errorTable[e.Code]
	if !ok {
		cl = errorClass{http: http.StatusInternalServerError, status: "INTERNAL"}
	}
	code := cl.http
	if status != 0 {
		code = status
	}
	details := json.RawMessage("[]")
	if d := bytes.TrimSpace(e.Data); len(d) > 0 && d[0] == '[' {
		details = d
	} else if ok {
		details = mustJSON([]ErrorInfo{{Type: ErrorInfoType, Reason: cl.reason, Domain: ErrorDomain}})
	}
	body := struct {
		Error struct {
			Code    int             `json:"code"`
			Status  string          `json:"status"`
			Message string          `json:"message"`
			Details json.RawMessage `json:"details"`
		} `json:"error"`
	}{}
	body.Error.Code = code
	body.Error.Status = cl.status
	body.Error.Message = e.Message
	body.Error.Details = details
	return code, mustJSON(body)
}

// marshal encodes v compactly without HTML escaping (A2A payloads are not HTML).
func marshal(v any) ([]byte, error) {
	if raw, ok := v.(json.RawMessage); ok {
		if !json.Valid(raw) {
			return nil, errInternal("agent produced invalid JSON")
		}
		return raw, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// mustJSON is marshal for values built by the core, which always encode.
func mustJSON(v any) json.RawMessage {
	b, err := marshal(v)
	if err != nil {
		return json.RawMessage("null")
	}
	return b
}
