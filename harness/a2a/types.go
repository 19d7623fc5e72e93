package a2a

import (
	"bytes"
	"encoding/json"
)

// ProtocolVersion is the value of the A2A-Version header this harness speaks.
const ProtocolVersion = "1.0"

// Header names of the A2A 1.0 transport.
const (
	HeaderVersion    = "A2A-Version"
	HeaderExtensions = "A2A-Extensions"
)

// CardPath is where an agent serves its card, relative to its origin.
const CardPath = "/.well-known/agent-card.json"

// Protocol bindings named in AgentInterface.protocolBinding.
const (
	BindingJSONRPC  = "JSONRPC"
	BindingHTTPJSON = "HTTP+JSON"
	BindingGRPC     = "GRPC"
)

// Task states (proto enum names).
const (
	StateSubmitted     = "TASK_STATE_SUBMITTED"
	StateWorking       = "TASK_STATE_WORKING"
	StateCompleted     = "TASK_STATE_COMPLETED"
	StateFailed        = "TASK_STATE_FAILED"
	StateCanceled      = "TASK_STATE_CANCELED"
	StateInputRequired = "TASK_STATE_INPUT_REQUIRED"
	StateRejected      = "TASK_STATE_REJECTED"
	StateAuthRequired  = "TASK_STATE_AUTH_REQUIRED"
)

// Roles (proto enum names).
const (
	RoleUser  = "ROLE_USER"
	RoleAgent = "ROLE_AGENT"
)

// JSON-RPC and A2A error codes.
const (
	CodeParseError                = -32700
	CodeInvalidRequest            = -32600
	CodeMethodNotFound            = -32601
	CodeInvalidParams             = -32602
	CodeInternalError             = -32603
	CodeTaskNotFound              = -32001
	CodeTaskNotCancelable         = -32002
	CodePushNotSupported          = -32003
	CodeUnsupportedOperation      = -32004
	CodeContentTypeNotSupported   = -32005
	CodeInvalidAgentResponse      = -32006
	CodeExtendedCardNotConfigured = -32007
	CodeExtensionSupportRequired  = -32008
	CodeVersionNotSupported       = -32009
)

// IsTerminal reports whether a task state ends the task.
func IsTerminal(state string) bool {
	switch state {
	case StateCompleted, StateFailed, StateCanceled, StateRejected:
		return true
	}
	return false
}

// AgentCard is the A2A 1.0 Agent Card. Unknown members are not kept here; use the raw bytes for those.
type AgentCard struct {
	Name                 string                     `json:"name"`
	Description          string                     `json:"description"`
	SupportedInterfaces  []AgentInterface           `json:"supportedInterfaces"`
	Provider             *AgentProvider             `json:"provider,omitempty"`
	Version              string                     `json:"version"`
	DocumentationURL     string                     `json:"documentationUrl,omitempty"`
	Capabilities         AgentCapabilities          `json:"capabilities"`
	SecuritySchemes      map[string]json.RawMessage `json:"securitySchemes,omitempty"`
	SecurityRequirements []SecurityRequirement      `json:"securityRequirements,omitempty"`
	DefaultInputModes    []string                   `json:"defaultInputModes"`
	DefaultOutputModes   []string                   `json:"defaultOutputModes"`
	Skills               []AgentSkill               `json:"skills"`
	Signatures           []AgentCardSignature       `json:"signatures,omitempty"`
	IconURL              string                     `json:"iconUrl,omitempty"`
}

// AgentInterface is one entry of supportedInterfaces.
type AgentInterface struct {
	URL             string `json:"url"`
	ProtocolBinding string `json:"protocolBinding"`
	ProtocolVersion string `json:"protocolVersion"`
	Tenant          string `json:"tenant,omitempty"`
}

// AgentProvider names the organization behind an agent.
type AgentProvider struct {
	Organization string `json:"organization"`
	URL          string `json:"url"`
}

// AgentCapabilities are the optional capabilities of an agent.
type AgentCapabilities struct {
	Streaming         bool             `json:"streaming,omitempty"`
	PushNotifications bool             `json:"pushNotifications,omitempty"`
	ExtendedAgentCard bool             `json:"extendedAgentCard,omitempty"`
	Extensions        []AgentExtension `json:"extensions,omitempty"`
}

// AgentExtension declares one extension in capabilities.extensions.
type AgentExtension struct {
	URI         string          `json:"uri"`
	Description string          `json:"description,omitempty"`
	Required    bool            `json:"required,omitempty"`
	Params      json.RawMessage `json:"params,omitempty"`
}

// SecurityRequirement is {"schemes": {"<name>": {"list": [scopes]}}}.
type SecurityRequirement struct {
	Schemes map[string]StringList `json:"schemes"`
}

// StringList is the proto wrapper for a list of scopes.
type StringList struct {
	List []string `json:"list,omitempty"`
}

// UnmarshalJSON reads the ProtoJSON form {"list": [...]} and also a bare [...], the form a2a-go v2 (the
// official Go SDK, through v2.3.1) writes: no row grades the scopes' shape, and refusing the whole card for it
// made every row of every document fail against a correct host built on that SDK.
func (l *StringList) UnmarshalJSON(b []byte) error {
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '[' {
		l.List = nil
		return json.Unmarshal(t, &l.List)
	}
	type plain StringList
	return json.Unmarshal(b, (*plain)(l))
}

// AgentSkill is one skill of the card.
type AgentSkill struct {
	ID                   string                `json:"id"`
	Name                 string                `json:"name"`
	Description          string                `json:"description"`
	Tags                 []string              `json:"tags"`
	Examples             []string              `json:"examples,omitempty"`
	InputModes           []string              `json:"inputModes,omitempty"`
	OutputModes          []string              `json:"outputModes,omitempty"`
	SecurityRequirements []SecurityRequirement `json:"securityRequirements,omitempty"`
}

// AgentCardSignature is a detached JWS over the canonical card (A2A §8.4).
type AgentCardSignature struct {
	Protected string          `json:"protected"`
	Signature string          `json:"signature"`
	Header    json.RawMessage `json:"header,omitempty"`
}

// Extension returns the card's declaration of uri, if any.
func (c *AgentCard) Extension(uri string) (AgentExtension, bool) {
	for _, e := range c.Capabilities.Extensions {
		if e.URI == uri {
			return e, true
		}
	}
	return AgentExtension{}, false
}

// Skill returns the skill with id, if any.
func (c *AgentCard) Skill(id string) (AgentSkill, bool) {
	for _, s := range c.Skills {
		if s.ID == id {
			return s, true
		}
	}
	return AgentSkill{}, false
}

// Interface returns the first interface with the binding, if any.
func (c *AgentCard) Interface(binding string) (AgentInterface, bool) {
	for _, i := range c.SupportedInterfaces {
		if i.ProtocolBinding == binding {
			return i, true
		}
	}
	return AgentInterface{}, false
}

// Message is an A2A message.
type Message struct {
	MessageID        string          `json:"messageId"`
	ContextID        string          `json:"contextId,omitempty"`
	TaskID           string          `json:"taskId,omitempty"`
	Role             string          `json:"role"`
	Parts            []Part          `json:"parts"`
	Metadata         json.RawMessage `json:"metadata,omitempty"`
	Extensions       []string        `json:"extensions,omitempty"`
	ReferenceTaskIDs []string        `json:"referenceTaskIds,omitempty"`
}

// Part is exactly one of text, data, raw or url, with optional media type, filename and metadata.
type Part struct {
	Text      *string         `json:"text,omitempty"`
	Data      json.RawMessage `json:"data,omitempty"`
	Raw       []byte          `json:"raw,omitempty"`
	URL       *string         `json:"url,omitempty"`
	MediaType string          `json:"mediaType,omitempty"`
	Filename  string          `json:"filename,omitempty"`
	Metadata  json.RawMessage `json:"metadata,omitempty"`
}

// TextPart returns a text part.
func TextPart(s string) Part { return Part{Text: &s} }

// DataPart returns a data part holding v encoded as JSON; v must be encodable.
func DataPart(v any) Part {
	b, err := json.Marshal(v)
	if err != nil {
		panic("a2a.DataPart: " + err.Error()) // a programming error in the caller, never target data
	}
	return Part{Data: b}
}

// Task is an A2A task.
type Task struct {
	ID        string          `json:"id"`
	ContextID string          `json:"contextId,omitempty"`
	Status    TaskStatus      `json:"status"`
	Artifacts []Artifact      `json:"artifacts,omitempty"`
	History   []Message       `json:"history,omitempty"`
	Metadata  json.RawMessage `json:"metadata,omitempty"`
}

// TaskStatus is a task's state with an optional status message.
type TaskStatus struct {
	State     string   `json:"state"`
	Message   *Message `json:"message,omitempty"`
	Timestamp string   `json:"timestamp,omitempty"`
}

// Artifact is a task output.
type Artifact struct {
	ArtifactID  string          `json:"artifactId"`
	Name        string          `json:"name,omitempty"`
	Description string          `json:"description,omitempty"`
	Parts       []Part          `json:"parts"`
	Metadata    json.RawMessage `json:"metadata,omitempty"`
	Extensions  []string        `json:"extensions,omitempty"`
}

// SendMessageRequest is the params of SendMessage / SendStreamingMessage.
type SendMessageRequest struct {
	Message       Message         `json:"message"`
	Configuration json.RawMessage `json:"configuration,omitempty"`
	Metadata      json.RawMessage `json:"metadata,omitempty"`
	Tenant        string          `json:"tenant,omitempty"`
}

// SendResult is the result of SendMessage: exactly one of Task or Message.
type SendResult struct {
	Task    *Task    `json:"task,omitempty"`
	Message *Message `json:"message,omitempty"`
}

// StreamEvent is one result of a streaming call: exactly one member is set.
type StreamEvent struct {
	Task           *Task                    `json:"task,omitempty"`
	Message        *Message                 `json:"message,omitempty"`
	StatusUpdate   *TaskStatusUpdateEvent   `json:"statusUpdate,omitempty"`
	ArtifactUpdate *TaskArtifactUpdateEvent `json:"artifactUpdate,omitempty"`
}

// TaskStatusUpdateEvent reports a status change on a stream.
type TaskStatusUpdateEvent struct {
	TaskID    string          `json:"taskId"`
	ContextID string          `json:"contextId,omitempty"`
	Status    TaskStatus      `json:"status"`
	Metadata  json.RawMessage `json:"metadata,omitempty"`
}

// TaskArtifactUpdateEvent delivers an artifact or a chunk of one on a stream.
type TaskArtifactUpdateEvent struct {
	TaskID    string          `json:"taskId"`
	ContextID string          `json:"contextId,omitempty"`
	Artifact  Artifact        `json:"artifact"`
	Append    bool            `json:"append,omitempty"`
	LastChunk bool            `json:"lastChunk,omitempty"`
	Metadata  json.RawMessage `json:"metadata,omitempty"`
}

// RPCError is a JSON-RPC error object.
type RPCError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *RPCError) Error() string { return e.Message }

// RPCResponse is a decoded JSON-RPC response; Raw members keep the bytes for assertions.
type RPCResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *RPCError       `json:"error,omitempty"`
}
