package skiface

import (
	"errors"
	"fmt"
	"strings"
)

// The machine-readable conditions of interface version 1.0 ("Machine-readable error conditions").
const (
	SkillNotAdvertised          = "skill_not_advertised"
	UnsupportedInterfaceVersion = "unsupported_interface_version"
	InterfaceUnavailable        = "interface_unavailable"
	InterfaceInvalid            = "interface_invalid"
	InterfaceMismatch           = "interface_mismatch"
	InputInvalid                = "input_invalid"
	OutputInvalid               = "output_invalid"
	ConstraintRejected          = "constraint_rejected"
	AuthorizationFailed         = "authorization_failed"
	ResourceLimitExceeded       = "resource_limit_exceeded"
)

// Codes lists the ten conditions in the document's order.
var Codes = []string{SkillNotAdvertised, UnsupportedInterfaceVersion, InterfaceUnavailable, InterfaceInvalid,
	InterfaceMismatch, InputInvalid, OutputInvalid, ConstraintRejected, AuthorizationFailed, ResourceLimitExceeded}

// IsCode reports whether s is one of the ten conditions, spelt exactly.
func IsCode(s string) bool {
	for _, c := range Codes {
		if c == s {
			return true
		}
	}
	return false
}

// ExtensionURI is the schema-interface extension.
const ExtensionURI = "https://agentic-network-management.github.io/agent-schema-interfaces/extensions/schema-interface/v1"

// InterfaceVersion is the only Skill Interface version this package supports.
const InterfaceVersion = "1.0"

// DescribeSkill is the retrieval skill's id.
const DescribeSkill = "describe_skill"

// Dialect2020 is the JSON Schema dialect whose meta-schema is trusted locally.
const Dialect2020 = "https://json-schema.org/draft/2020-12/schema"

// Detail is one diagnostic entry of input_invalid / output_invalid (instance_path is an RFC 6901 JSON Pointer).
type Detail struct {
	InstancePath string `json:"instance_path"`
	SchemaPath   string `json:"schema_path,omitempty"`
	Keyword      string `json:"keyword,omitempty"`
	Message      string `json:"message,omitempty"`
}

// Error is a condition detected by this package. Code is one of the ten conditions (empty only for failures the
// document assigns no condition to, such as a transport error or a harness policy refusal); Step names where the
// procedure stopped; Path is a JSON Pointer into the document or instance when one applies.
type Error struct {
	Code    string
	Step    string
	Path    string
	Msg     string
	Details []Detail
	Err     error
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Code != "" {
		b.WriteString(e.Code)
	} else {
		b.WriteString("error")
	}
	if e.Step != "" {
		fmt.Fprintf(&b, " at %s", e.Step)
	}
	if e.Path != "" {
		fmt.Fprintf(&b, " (%s)", e.Path)
	}
	if e.Msg != "" {
		b.WriteString(": ")
		b.WriteString(e.Msg)
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// CodeOf returns the condition code carried by err ("" when none).
func CodeOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func errf(code, step, path, format string, a ...any) *Error {
	return &Error{Code: code, Step: step, Path: path, Msg: fmt.Sprintf(format, a...)}
}
