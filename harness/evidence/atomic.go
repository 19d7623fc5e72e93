package evidence

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// writeFileAtomic writes a file under a temporary name beside path and renames it into place only once every
// byte is written and the file is closed: a full disk or a failed write leaves nothing under the final name (a
// truncated bundle or transcript would read as evidence). The error is a WriteError.
func writeFileAtomic(path string, write func(io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return &WriteError{Path: path, Err: err}
	}
	tmp := f.Name()
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return &WriteError{Path: path, Err: err}
	}
	return nil
}

// WriteError is a file the harness could not write (a full disk, a read-only directory): the run's fault, not the
// target's, so runsuite exits 3 on it.
type WriteError struct {
	Path string
	Err  error
}

func (e *WriteError) Error() string { return fmt.Sprintf("writing %s: %v", e.Path, e.Err) }
func (e *WriteError) Unwrap() error { return e.Err }
