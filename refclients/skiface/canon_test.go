package skiface

import (
	"bytes"
	"fmt"
	"testing"
)

// The canonical-form cache is invisible: same results as jcs.Transform, errors included, the caller may write to
// what JCS returns, and it stays within its bounds.
func TestCanonicalCache(t *testing.T) {
	in := []byte(`{"b": 1, "a": [true, 1.0e0, "x"]}`)
	want := `{"a":[true,1,"x"],"b":1}`
	for range 2 {
		got, err := JCS(in)
		if err != nil || string(got) != want {
			t.Fatalf("JCS = %s, %v; want %s", got, err, want)
		}
		got[0] = 'X' // the caller's copy
	}
	d1, _ := InterfaceDigest(in)
	if d1 != DigestBytes([]byte(want)) {
		t.Errorf("digest %s, want the digest of %s", d1, want)
	}
	for range 2 {
		if _, err := JCS([]byte(`{"a":1,"a":2}`)); err == nil {
			t.Error("duplicate member names accepted (the cached answer must be the refusal too)")
		}
	}
	for i := range canonMaxEntries + 10 {
		if _, err := JCS(fmt.Appendf(nil, `{"i":%d}`, i)); err != nil {
			t.Fatal(err)
		}
	}
	canonCache.mu.Lock()
	n, b := len(canonCache.m), canonCache.bytes
	canonCache.mu.Unlock()
	if n > canonMaxEntries || b > canonMaxBytes {
		t.Errorf("cache holds %d entries, %d bytes; bounds %d, %d", n, b, canonMaxEntries, canonMaxBytes)
	}
	if got, _ := JCS(in); !bytes.Equal(got, []byte(want)) {
		t.Errorf("after eviction JCS = %s", got)
	}
}
