// Package onrequest is the reference agent of the On Request extension: Annex A's Example Memorial Chapel as a
// working A2A agent (public, on-request, opted-in, tel: and action skills, a sign-in skill, the escalation skill),
// a kiosk whose operator holds only a level-1 attestation and has nobody to reach, and the operator's test
// endpoints (statement, action log, reversal, the person's confirmation page). Every sabotage toggle of the
// document is consulted where the requirement is honoured.
package onrequest
