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
	MaxSchemaBytes  *int                 `json:"maxSchemaBytes"`
	MaxNesting      *int                 `json:"maxNesting"`
	MaxRefDepth     *int                 `json:"maxRefDepth"`
	CompileTimeout  *strictjson.Duration `json:"compileTimeout"`
	MaxPayloadBytes *int64               `json:"maxPayloadBytes"`
	MaxCacheEntries *int                 `json:"maxCacheEntries"`
	MaxCacheBytes   *int64               `json:"maxCacheBytes"`
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
	strictjson.Positive(&errs, "limits."+LimitsMember+".maxSchemaBytes", j.MaxSchemaBytes, &out.MaxSchemaBytes)
	strictjson.Positive(&errs, "limits."+LimitsMember+".maxNesting", j.MaxNesting, &out.MaxNesting)
	strictjson.Positive(&errs, "limits."+LimitsMember+".maxRefDepth", j.MaxRefDepth, &out.MaxRefDepth)
	if j.CompileTimeout != nil {
		out.CompileTimeout = time.Duration(*j.CompileTimeout)
	}
	strictjson.Positive(&errs, "limits."+LimitsMember+".maxPayloadBytes", j.MaxPayloadBytes, &out.MaxPayloadBytes)
	strictjson.Positive(&errs, "limits."+LimitsMember+".maxCacheEntries", j.MaxCacheEntries, &out.MaxCacheEntries)
	strictjson.Positive(&errs, "limits."+LimitsMember+".maxCacheBytes", j.MaxCacheBytes, &out.MaxCacheBytes)
	return out, errors.Join(errs...)
}
