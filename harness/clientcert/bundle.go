package clientcert

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/gowebpki/jcs"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/harness/evidence"
)

// transcriptLine is one exchange in a client run's transcript (JSON Lines, one per line, numbered across all
// scenarios). Its id is SHA-256 over the JCS form of the line with id "", as runsuite verify recomputes it.
type transcriptLine struct {
	Seq            int         `json:"seq"`
	ID             string      `json:"id"`
	Scenario       string      `json:"scenario"`
	ScenarioSeq    int         `json:"scenarioSeq"`
	Downstream     bool        `json:"downstream,omitempty"` // sent to the scenario's downstream counterpart
	Method         string      `json:"method"`
	URL            string      `json:"url"` // the path the client asked of the proxy
	Status         int         `json:"status"`
	RequestHeader  http.Header `json:"requestHeader,omitempty"`
	RequestBody    []byte      `json:"requestBody,omitempty"`
	ResponseHeader http.Header `json:"responseHeader,omitempty"`
	ResponseBody   []byte      `json:"responseBody,omitempty"`
	Truncated      bool        `json:"truncated,omitempty"`
	Error          string      `json:"error,omitempty"`
}

// credentialHeaders are redacted in the transcript: the credential the contract hands the client is the
// counterpart's, and a bundle travels.
var credentialHeaders = []string{"Authorization", "Proxy-Authorization", "Cookie", "X-Api-Key"}

// buildTranscript numbers every recorded exchange across the scenarios, gives each its id and renders the
// transcript.
func buildTranscript(scs []ScenarioResult, credentials []string) ([]byte, error) {
	var buf bytes.Buffer
	n := 0
	for _, s := range scs {
		if s.Observation == nil {
			continue
		}
		secrets := append(append([]string{}, credentials...), s.Observation.secrets...)
		for _, ex := range s.Observation.Exchanges {
			n++
			ex.mu.Lock()
			ex.Header = redact(ex.Header, secrets) // the results file carries the records too
			l := transcriptLine{Seq: n, Scenario: s.ID, ScenarioSeq: ex.Seq, Downstream: ex.Downstream, Method: ex.Method, URL: ex.Path, Status: ex.Status,
				RequestHeader: ex.Header, RequestBody: ex.Body, ResponseHeader: ex.RespHeader,
				ResponseBody: ex.RespBody, Truncated: ex.Truncated, Error: ex.Error}
			ex.mu.Unlock()
			id, err := lineID(l)
			if err != nil {
				return nil, err
			}
			l.ID = id
			ex.ID = id
			// Written in its canonical (JCS) form, as run transcripts are: runsuite verify reads a line it has just
			// written as canonical, and its id is the digest of exactly these bytes with the id blanked.
			b, err := canonicalLine(l)
			if err != nil {
				return nil, err
			}
			buf.Write(b)
			buf.WriteByte('\n')
		}
	}
	return buf.Bytes(), nil
}

func lineID(l transcriptLine) (string, error) {
	l.ID = ""
	raw, err := canonicalLine(l)
	if err != nil {
		return "", err
	}
	return evidence.Digest(raw), nil
}

// canonicalLine is the JCS form of a transcript line.
func canonicalLine(l transcriptLine) ([]byte, error) {
	raw, err := json.Marshal(l)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	if raw, err = json.Marshal(m); err != nil {
		return nil, err
	}
	return jcs.Transform(raw)
}

func redact(h http.Header, values []string) http.Header {
	out := h.Clone()
	for _, k := range credentialHeaders {
		if out.Get(k) != "" {
			out.Set(k, "[redacted]")
		}
	}
	for k, vs := range out {
		for i, v := range vs {
			for _, secret := range values {
				if secret != "" && strings.Contains(v, secret) {
					out[k][i] = "[redacted]"
				}
			}
		}
	}
	return out
}

// Bundle assembles the evidence bundle of a client certification: the client's identity and scenarios in
// target.client, every catalog row (the client rows with their verdicts, about the client under test; every
// other row skipped), the transcript of what the client sent, the same witness digest. Sign it with
// evidence.Sign and write it with evidence.WriteDir; runsuite verify checks it like any bundle.
func Bundle(res *Result, cat *catalog.Catalog, docs []string, runner harness.Runner) (*evidence.Bundle, []byte) {
	rows := make([]harness.RowVerdict, 0, len(cat.Rows))
	client := map[string]harness.RowVerdict{}
	var clientIDs []string
	for _, v := range res.Rows {
		client[v.ID] = v
		clientIDs = append(clientIDs, v.ID)
	}
	for _, r := range cat.Rows {
		if v, ok := client[r.ID]; ok {
			rows = append(rows, v)
			continue
		}
		why := "not a client row: runsuite client grades the rows the catalog witnesses with a reference client"
		if r.SelfCheck() {
			why = "a client row of a document left out by --suite"
		}
		rows = append(rows, harness.RowVerdict{ID: r.ID, Document: r.Document, Aliases: r.Aliases, Verdict: harness.Skipped, Detail: why,
			Advisory: r.Advisory() && !r.SelfCheck()})
	}
	b := &evidence.Bundle{BundleVersion: evidence.BundleVersion, Kind: "claim", Harness: evidence.BuildInfo(),
		Catalog:   evidence.CatalogRef{Digest: cat.Digest(), Rows: len(cat.Rows)},
		Selection: harness.Selection{Documents: append([]string{}, docs...), Rows: clientIDs},
		Started:   res.Started.Format("2006-01-02T15:04:05.999999999Z07:00"), Finished: res.Finished.Format("2006-01-02T15:04:05.999999999Z07:00"),
		Rows: rows, Totals: harness.Totals(harness.RequiredRows(rows)), Advisory: evidence.AdvisoryOf(rows),
		SelfCheck: evidence.SelfCheck{Status: harness.SelfCheckStatus(rows), Totals: harness.Totals(harness.SelfCheckRows(rows))},
		Target:    evidence.TargetRef{Kind: evidence.TargetKindClient, Cards: []evidence.CardRef{}}}
	for _, d := range catalog.Documents {
		ref := evidence.DocumentRef{ID: d.ID, Title: d.Title, URI: d.URI}
		for _, f := range cat.Files {
			if f.Document == d.ID {
				ref.TextSHA256 = f.TextSHA256
			}
		}
		b.Documents = append(b.Documents, ref)
	}
	cl := &evidence.ClientRef{Command: res.Client.Command, Name: res.Client.Name, Version: res.Client.Version,
		IdentityError: res.Client.Error, Actions: res.Client.Actions, ScopeStatus: res.ScopeStatus, ScopeRows: append([]string{}, res.Scope...), Scenarios: []evidence.ClientScenarioRef{}}
	for _, s := range res.Scenarios {
		ref := evidence.ClientScenarioRef{ID: s.ID, Action: s.Action, Toggles: s.Toggles, Outcome: s.Observation.Outcome()}
		if r := s.Observation.Reply(); r != nil {
			ref.Reason = r.Reason
		}
		ref.Error = s.Observation.Error
		if ref.Error == "" {
			ref.Error = s.Observation.Invocation.Error
		}
		if ref.Outcome == "" {
			ref.Outcome = "none"
		}
		if s.NotRun != "" {
			ref.Outcome, ref.Error = "not-run", s.NotRun
		}
		cl.Scenarios = append(cl.Scenarios, ref)
	}
	b.Target.Client = cl
	b.Runner, b.TierBasis = evidence.DecideTier(runner, b.Target.Cards)
	for _, r := range rows {
		b.AssertionCount += r.Assertions
	}
	b.Status, b.StatusReason = harness.StatusOf(rows, false)
	transcript := res.transcript
	b.Transcript = evidence.TranscriptRef{File: evidence.TranscriptFile, Exchanges: res.exchanges, SHA256: evidence.Digest(transcript)}
	b.WitnessSHA256, _ = evidence.Witness(rows, transcript)
	return b, transcript
}
