package strictjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
)

// NoDuplicates refuses a JSON document holding an object with two members of one name (at any depth), naming the
// path, or trailing data after its value. For documents whose members this harness may not all know (a bundle of
// another version), where Decode would also refuse the unknown ones.
func NoDuplicates(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := walkDup(dec, "$"); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("$: data after the top-level value")
	}
	return nil
}

func walkDup(dec *json.Decoder, path string) error {
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return nil
	}
	switch d {
	case '{':
		seen := map[string]bool{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			k, _ := kt.(string)
			if seen[k] {
				return fmt.Errorf("%s.%s: duplicate member %q (which one counts is up to the reader)", path, k, k)
			}
			seen[k] = true
			if err := walkDup(dec, path+"."+k); err != nil {
				return err
			}
		}
	case '[':
		for i := 0; dec.More(); i++ {
			if err := walkDup(dec, path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
	}
	_, err = dec.Token() // the closing delimiter
	return err
}
