package target

import (
	"fmt"
	"io"
	"os"
)

// Caps on the files a configuration names: a configuration is hand-written JSON, a CA file a PEM bundle; neither
// is near these, and "/dev/zero" or a 600 MB file must be refused, not read.
const (
	MaxConfigBytes = 16 << 20
	MaxCAFileBytes = 4 << 20
)

// readFileCapped reads a regular file of at most max bytes; what names it (what) is in every error.
func readFileCapped(path, what string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s %s is not a regular file", what, path)
	}
	if st.Size() > max {
		return nil, fmt.Errorf("%s %s is %d bytes, more than the %d MiB a %s may be", what, path, st.Size(), max>>20, what)
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(b)) > max {
		err = fmt.Errorf("%s %s is more than %d MiB", what, path, max>>20)
	}
	return b, err
}

// checkHeader refuses a header name or value net/http would refuse to send, at load (exit 2), so no row fails
// against the agent for a credential the harness could never send.
func checkHeader(where, name, value string) error {
	if name == "" {
		return fmt.Errorf("%s.header is empty", where)
	}
	for i := 0; i < len(name); i++ {
		if !tokenChar(name[i]) {
			return fmt.Errorf("%s.header %q is not a valid HTTP header name (byte %d: %q)", where, name, i, name[i])
		}
	}
	for i := 0; i < len(value); i++ {
		if c := value[i]; c < 0x20 && c != '\t' || c == 0x7f {
			return fmt.Errorf("%s.value is not a valid HTTP header value (a control character at byte %d)", where, i)
		}
	}
	return nil
}

func tokenChar(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	switch c {
	case '!', '#', '$', '%', '&', '\'', '*', '+', '-', '.', '^', '_', '`', '|', '~':
		return true
	}
	return false
}
