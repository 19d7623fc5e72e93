package skiface

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/extconf/extconf/harness/strictjson"
)

// LimitsMember is the member of the target configuration's "limits" that holds these limits.
const LimitsMember = "schemaInterface"

type limitsJSON struct {
	MaxSchemaBytes  *int      `json:"maxSchemaBytes"`
	MaxNesting      *int      `json:"maxNesting"`
	MaxRefDepth     *int      `json:"maxRefDepth"`
	CompileTimeout  *duration `json:"compileTimeout"`
	MaxPayloadBytes *int64    `json:"maxPayloadBytes"`
	MaxCacheEntries *int      `json:"maxCacheEntries"`
	MaxCacheBytes   *int64    `json:"maxCacheBytes"`
}

type duration time.Duration

func (d *duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("want a duration string such as \"5s\" or \"750ms\", got %s", b)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	if v <= 0 {
		return fmt.Errorf("duration %q is not positive", s)
	}
	*d = duration(v)
	return nil
}

// ParseLimits reads limits.schemaInterface over DefaultLimits: members present override, absent ones keep the
// default; unknown members and non-positive values are errors naming the member. Empty raw gives the defaults.
func ParseLimits(raw json.RawMessage) (Limits, error) {
	out := DefaultLimits()
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return out, nil
	}
	var j limitsJSON
	if err := strictjson.Decode(raw, &j); err != nil {
		return out, fmt.Errorf("limits.%s: %w", LimitsMember, err)
	}
	var errs []error
	positive(&errs, "maxSchemaBytes", j.MaxSchemaBytes, &out.MaxSchemaBytes)
	positive(&errs, "maxNesting", j.MaxNesting, &out.MaxNesting)
	positive(&errs, "maxRefDepth", j.MaxRefDepth, &out.MaxRefDepth)
	if j.CompileTimeout != nil {
		out.CompileTimeout = time.Duration(*j.CompileTimeout)
	}
	positive(&errs, "maxPayloadBytes", j.MaxPayloadBytes, &out.MaxPayloadBytes)
	positive(&errs, "maxCacheEntries", j.MaxCacheEntries, &out.MaxCacheEntries)
	positive(&errs, "maxCacheBytes", j.MaxCacheBytes, &out.MaxCacheBytes)
	return out, errors.Join(errs...)
}

func positive[T int | int64](errs *[]error, name string, p, dst *T) {
	if p == nil {
		return
	}
	if *p <= 0 {
		*errs = append(*errs, fmt.Errorf("limits.%s.%s: %d is not positive", LimitsMember, name, *p))
		return
	}
	*dst = *p
}
