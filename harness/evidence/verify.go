package evidence

import (
	"encoding/json"
	"fmt"

	"github.com/go-jose/go-jose/v4"

	"github.com/extconf/extconf/harness/catalog"
)

// VerifyOptions shape an offline verification.
type VerifyOptions struct {
	// Key pins the signer: the signature must verify with this public key. Nil: the key embedded in the bundle
	// (which proves integrity, not who signed).
	Key *jose.JSONWebKey
	// KnownToggle reports whether a sabotage toggle id exists in this harness (sabotage.Known): the
	// falsifiability table's toggles are checked against it. The engine takes it as a function because it does
	// not import the registry. Nil: toggle ids are not checked, and a note says so.
	KnownToggle func(id string) bool
	// KnownLatitude does the same for the latitudes section (sabotage.KnownLatitude). Nil: not checked, noted.
	KnownLatitude func(id string) bool
	// TrustWritten: the transcript is one this process just wrote (the self-check after a run), so its lines are
	// canonical: each is checked by hashing it with its id blanked, not by decoding, re-encoding and canonicalising
	// it. An edited line still fails (its id no longer matches); a non-canonical one would be reported as edited,
	// which is why third-party verification never sets it.
	TrustWritten bool
}

// Check is one named verification step: it holds when it has no problems. Notes say what was checked.
type Check struct {
	Name     string
	Problems []string // at most maxProblems, then one "and N more"
	Notes    []string
	more     int
}

// OK reports whether the check holds.
func (c Check) OK() bool { return len(c.Problems) == 0 }

// Report is the outcome of verifying a bundle.
type Report struct {
	Path      string
	Bundle    *Bundle
	Checks    []Check
	Signature SignatureCheck
}

// OK reports whether every check holds: the only condition for `runsuite verify` to exit 0.
func (r *Report) OK() bool {
	for _, c := range r.Checks {
		if !c.OK() {
			return false
		}
	}
	return true
}

// Problems lists every problem as "check: problem".
func (r *Report) Problems() []string {
	var out []string
	for _, c := range r.Checks {
		for _, p := range c.Problems {
			out = append(out, c.Name+": "+p)
		}
	}
	return out
}

// Verify checks a bundle offline against its embedded key and returns every problem found.
func Verify(path string) ([]string, error) {
	r, err := VerifyBundle(path, VerifyOptions{})
	if err != nil {
		return nil, err
	}
	return r.Problems(), nil
}

// VerifyBundle checks a bundle offline: schema; signature (against o.Key, else the embedded key); every
// transcript line against its exchange id and the transcript against its digest; the witness digest; the
// target cards against the exchanges that fetched them; totals, assertion count and status against the rows;
// the catalog digest against this harness's catalog; that every catalog row of the covered documents is present;
// that the falsifiability table names toggles and rows that exist; and that the bundle's kind matches its tier
// and signature. Each problem names what does not hold.
func VerifyBundle(path string, o VerifyOptions) (*Report, error) {
	raw, err := readCapped(path, MaxBundleBytes)
	if err != nil {
		return nil, err
	}
	cat, err := catalog.Load()
	if err != nil {
		return nil, err
	}
	rep := &Report{Path: path}
	check := func(name string) *Check {
		rep.Checks = append(rep.Checks, Check{Name: name})
		return &rep.Checks[len(rep.Checks)-1]
	}
	// A bundle with members this harness does not know still gets every check it can (the schema check names
	// the unknown member); only a file that is not a bundle at all stops here.
	b := &Bundle{}
	if err := noDuplicates(raw, o.TrustWritten); err != nil {
		// encoding/json lets the last of two members win: "status":"failed","status":"passed" would read PASSED
		c := check("bundle")
		c.add(fmt.Sprintf("%s is not an extconf bundle: %v", path, err))
		return rep, nil
	}
	if err := json.Unmarshal(raw, b); err != nil {
		c := check("bundle")
		c.add(fmt.Sprintf("%s is not an extconf bundle: %v", path, err))
		if err := Validate(raw); err != nil {
			c.add("schema: " + oneLine(err.Error()))
		}
		return rep, nil
	}
	rep.Bundle = b

	// The transcript (most of the work: every line hashed) is checked while the checks that need only the bundle
	// run; its check keeps its place in the report.
	tc := Check{Name: "transcript"}
	var transcriptSHA string
	var exchanges map[string]exchangeLine
	transcriptDone := make(chan struct{})
	go func() {
		defer close(transcriptDone)
		transcriptSHA, exchanges = checkTranscript(&tc, path, b, o.TrustWritten)
	}()
	// The witness digest over the transcript digest the bundle states, recomputed below if the file's differs.
	claimedWitness, claimedErr := WitnessDigest(b.Rows, b.Transcript.SHA256)

	c := check("schema")
	if err := Validate(raw); err != nil {
		c.add(fmt.Sprintf("does not validate against evidence/bundle.schema.json: %v", oneLine(err.Error())))
	} else {
		c.Notes = append(c.Notes, "valid against evidence/bundle.schema.json")
	}

	c = check("signature")
	rep.Signature = CheckSignature(raw, b.Signature, o.Key)
	c.add(rep.Signature.Problems...)
	switch {
	case !rep.Signature.Signed:
		c.Notes = append(c.Notes, "unsigned: the bundle is a claim whoever ran it")
		if o.Key != nil {
			c.add("unsigned, but --key asks for a signature by " + mustThumb(o.Key))
		}
	case rep.Signature.Valid:
		note := fmt.Sprintf("valid %s signature by key %s, checked with the %s key", rep.Signature.Alg, rep.Signature.Thumbprint, rep.Signature.KeySource)
		if rep.Signature.KeySource == "embedded" {
			note += " (integrity only: pass --key to check who signed)"
		}
		c.Notes = append(c.Notes, note)
		if rep.Signature.TestKey != "" {
			c.Notes = append(c.Notes, "signed with the TEST-ONLY key "+rep.Signature.TestKey+", whose private half is public: the signature proves integrity, not who ran the harness")
		}
	}

	<-transcriptDone
	rep.Checks = append(rep.Checks, tc)

	c = check("witness")
	if transcriptSHA != "" {
		w, err := claimedWitness, claimedErr
		if transcriptSHA != b.Transcript.SHA256 {
			w, err = WitnessDigest(b.Rows, transcriptSHA)
		}
		switch {
		case err != nil:
			c.add(err.Error())
		case w != b.WitnessSHA256:
			why := "a row or the transcript was changed after the run"
			if transcriptSHA == b.Transcript.SHA256 {
				why = "the transcript is intact, so a row (verdict, detail, assertions or exchanges) was changed after the run"
			}
			c.add(fmt.Sprintf("witnessSha256: recomputed %s over the rows and transcript, the bundle says %s: %s", w, b.WitnessSHA256, why))
		default:
			c.Notes = append(c.Notes, "witnessSha256 matches the rows and the transcript")
		}
	}

	checkCitations(check("exchanges"), b, exchanges)
	checkTotals(check("totals"), b)
	sameCatalog := checkCatalog(check("catalog"), b, cat)
	checkRows(check("rows"), b, cat, sameCatalog)
	if b.Target.Kind == TargetKindClient || b.Target.Client != nil {
		checkClient(check("client"), b, cat, sameCatalog)
	}
	checkFalsifiability(check("falsifiability"), b, cat, sameCatalog, o)
	checkStanding(check("standing"), b, rep.Signature)
	rep.close()
	return rep, nil
}
