package agentcards

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/extconf/extconf/sabotage"
)

// mint returns the routing value of agentID for a caller in tenant / workspace / principal id, and records it.
// The spec-correct value is a keyed MAC of agentId ‖ host version: the same for every caller, encoding nothing.
func (h *host) mint(agentID, tenant, ws, pid string) string {
	if h.on(sabotage.ACRPerCaller) {
		agentID += "\x00" + tenant // a MAC per (agent, caller's tenant): encodes nothing, but differs per caller
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	mac := func(parts ...string) string {
		m := hmac.New(sha256.New, h.secret)
		m.Write([]byte(strings.Join(parts, "\x00")))
		return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
	}
	base := mac(agentID, h.fx.Host.Version)
	var r string
	switch {
	case h.on(sabotage.ACRPerRequest):
		h.seq++
		r = "ag-" + mac(agentID, h.fx.Host.Version, fmt.Sprint(h.seq))[:22]
	case h.on(sabotage.ACREncodesTenant):
		r = "tenant-" + tenant + "-" + agentID[strings.LastIndexByte(agentID, '.')+1:]
	case h.on(sabotage.ACRBase64Tenant):
		r = "ag-" + base64.RawURLEncoding.EncodeToString([]byte(tenant)) + "-" + base[:12]
	case h.on(sabotage.ACREncodesWorkspace):
		r = "ag-" + base64.RawURLEncoding.EncodeToString([]byte(ws)) + "." + base[:12]
	case h.on(sabotage.ACRBase32LowerTenant):
		r = "ag-" + strings.ToLower(strings.TrimRight(base32.StdEncoding.EncodeToString([]byte(tenant)), "=")) + "-" + base[:12]
	case h.on(sabotage.ACRRot13ReversedWS):
		r = "ag-" + reverseROT13(ws) + "-" + base[:12]
	case h.on(sabotage.ACPublicCardListsShortR):
		sum := sha256.Sum256([]byte(base))
		r = fmt.Sprintf("a%04d", (int(sum[0])<<8|int(sum[1]))%10000)
	case h.on(sabotage.ACREncodesPrincipal):
		r = "ag-" + hex.EncodeToString([]byte(pid)) + "-" + base[:12]
	case h.on(sabotage.ACROverSchemaLength):
		r = "ag-" + strings.Repeat(base, 3)[:126] // 129 characters: over the schema's maxLength 128
	case h.opt.RVariety:
		r = variedR(base)
	default:
		r = "ag-" + base[:22]
	}
	h.minted[r] = agentID
	return r
}

// variedR is the RVariety latitude: values of different lengths and alphabets, all inside the a2aTenant schema
// (1–128 characters of ^[A-Za-z0-9._~-]+$), chosen by the MAC so each agent keeps its value.
func variedR(mac string) string {
	sum := sha256.Sum256([]byte(mac))
	stream := hex.EncodeToString(sum[:])
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._~-"
	switch sum[0] % 4 {
	case 0: // digits only
		var b strings.Builder
		for i := 0; i < 12; i++ {
			b.WriteByte('0' + sum[i+1]%10)
		}
		return b.String()
	case 1: // lower-case hex, 40 characters
		return stream[:40]
	case 2: // the whole alphabet, the maximum length
		var b strings.Builder
		for i := 0; b.Len() < 128; i++ {
			x := sha256.Sum256([]byte(fmt.Sprint(mac, i)))
			for _, c := range x {
				if b.Len() < 128 {
					b.WriteByte(alphabet[int(c)%len(alphabet)])
				}
			}
		}
		return b.String()
	}
	return "a~" + mac[:5] // short, with a tilde
}

func (h *host) mintFor(p *principal, a *agent) string {
	return h.mint(a.AgentID, p.Tenant, p.Workspace, p.ID)
}

// requestID is a fresh per-response id.
func (h *host) requestID() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.reqSeq++
	m := hmac.New(sha256.New, h.secret)
	fmt.Fprint(m, "request", h.reqSeq)
	return hex.EncodeToString(m.Sum(nil))[:16]
}

// mintedAgent returns the agent a minted R names ("" when the host never minted it).
func (h *host) mintedAgent(r string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.minted[r]
}

// resolve finds the agent R names within p's inventory (the caller's tenant of record, RFC 0202 §D.9).
func (h *host) resolve(p *principal, r string) *agent {
	id := h.mintedAgent(r)
	if id == "" {
		return nil
	}
	for _, a := range h.inventory(p) {
		if a.AgentID == id && h.published(p, a) {
			return a
		}
	}
	return nil
}

// reverseROT13 is the ACRRot13ReversedWS encoding: ROT13, then reversed (a composition of two reversible steps).
func reverseROT13(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'z':
			b[i] = 'a' + (c-'a'+13)%26
		case c >= 'A' && c <= 'Z':
			b[i] = 'A' + (c-'A'+13)%26
		}
	}
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return string(b)
}
