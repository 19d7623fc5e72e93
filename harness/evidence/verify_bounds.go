package evidence

import (
	"fmt"
	"io"
	"os"

	"github.com/extconf/extconf/harness/strictjson"
)

// Bounds of verify on a bundle it does not trust: a hostile bundle must not take the verifier's memory (a 1.5 GB
// bundle.json was read whole, a transcript of 3 M lines of "{}" printed 3 M problems in 1.77 GB).
const (
	// MaxBundleBytes caps bundle.json (a whole-document bundle with its falsification table is a few MiB).
	MaxBundleBytes = 64 << 20
	// maxTranscriptExchanges caps the lines of the transcript verify reads (what it keeps per line is bounded).
	maxTranscriptExchanges = 2_000_000
	// maxProblems is how many problems a check lists before "and N more".
	maxProblems = 50
)

// add records a problem; past maxProblems it only counts.
func (c *Check) add(p ...string) {
	for _, s := range p {
		if len(c.Problems) < maxProblems {
			c.Problems = append(c.Problems, s)
		} else {
			c.more++
		}
	}
}

// close ends each check's problem list with "and N more problems" where the list was cut.
func (r *Report) close() {
	for i := range r.Checks {
		if c := &r.Checks[i]; c.more > 0 {
			c.Problems = append(c.Problems, fmt.Sprintf("and %d more problems", c.more))
			c.more = 0
		}
	}
}

// readCapped reads a file of at most max bytes, refusing a larger one before reading it.
func readCapped(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > max {
		return nil, fmt.Errorf("%s is %d bytes, more than a bundle may be (%d MiB): not verified", path, st.Size(), max>>20)
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%s is more than %d MiB, more than a bundle may be: not verified", path, max>>20)
	}
	return b, nil
}

// noDuplicates refuses a bundle with two members of one name (strictjson.NoDuplicates); a bundle this process
// just wrote (TrustWritten) has none and is not walked again.
func noDuplicates(raw []byte, trustWritten bool) error {
	if trustWritten {
		return nil
	}
	return strictjson.NoDuplicates(raw)
}
