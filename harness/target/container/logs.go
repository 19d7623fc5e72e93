package container

import (
	"bytes"
	"context"
	"errors"
	"io"
	"time"
)

// logsNow returns the container's stdout and stderr (at most 8 MiB): cached once closed, fetched before.
func (c *ctr) logsNow() []byte {
	c.logMu.Lock()
	cached := c.logs
	c.logMu.Unlock()
	if cached != nil {
		return cached
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, _ := c.fetchLogs(ctx)
	return out
}

func (c *ctr) fetchLogs(ctx context.Context) ([]byte, error) {
	if c.c == nil {
		return nil, errors.New("no container")
	}
	rc, err := c.c.Logs(ctx)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	out, err := io.ReadAll(io.LimitReader(rc, maxLogBytes))
	if errors.Is(err, io.EOF) {
		err = nil
	}
	return out, err
}

// logTail is the end of the container's log for an error message ("" when there is none).
func (c *ctr) logTail() string {
	if c.c == nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, _ := c.fetchLogs(ctx)
	out = bytes.TrimSpace(out)
	if len(out) == 0 {
		return ""
	}
	if len(out) > 2000 {
		out = append([]byte("…"), out[len(out)-2000:]...)
	}
	return "\ncontainer log:\n" + string(out)
}

func (c *ctr) logWriter() io.Writer {
	if c.o.Log == nil {
		return io.Discard
	}
	return c.o.Log
}
