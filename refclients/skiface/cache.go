package skiface

import "sync"

// cacheKey binds a validated document to what the current Agent Card advertised: target identity, skill id,
// skill version, interface version and interface digest. A change of any of them misses the cache.
type cacheKey struct {
	Target, SkillID, SkillVersion, InterfaceVersion, Digest string
}

type cache struct {
	mu      sync.Mutex
	entries map[cacheKey]*Verified
	order   []cacheKey // oldest first
	bytes   int64
}

func newCache() *cache { return &cache{entries: map[cacheKey]*Verified{}} }

func (c *cache) get(k cacheKey) *Verified {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.entries[k]
}

func (c *cache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

// put keeps v, evicting the oldest entries to stay within the limits. A single document larger than the whole
// cache budget is refused with resource_limit_exceeded; unbounded grows without limit (a toggle).
func (c *cache) put(k cacheKey, v *Verified, lim Limits, unbounded bool) *Error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[k]; ok {
		return nil
	}
	if !unbounded && int64(v.Size) > lim.MaxCacheBytes {
		return errf(ResourceLimitExceeded, Step6Schemas, "", "the document is %d bytes, over the cache budget", v.Size)
	}
	for !unbounded && len(c.order) > 0 && (len(c.entries)+1 > lim.MaxCacheEntries || c.bytes+int64(v.Size) > lim.MaxCacheBytes) {
		old := c.order[0]
		c.order = c.order[1:]
		if e := c.entries[old]; e != nil {
			c.bytes -= int64(e.Size)
		}
		delete(c.entries, old)
	}
	c.entries[k] = v
	c.order = append(c.order, k)
	c.bytes += int64(v.Size)
	return nil
}
