// Package evidence carries the evidence bundle's JSON Schema, so runs and offline verifiers share one definition.
package evidence
