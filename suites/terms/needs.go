package terms

import "github.com/extconf/extconf/harness"

// Needs is the document's static input table: which rows block without which member of documents.terms (runsuite
// config check reads it; a member may be declared absent under "absent"). Measured against the reference agent
// with only credentials given; a row is listed under the first member it misses.
func (document) Needs() []harness.Need {
	return []harness.Need{
		{Member: "claims", Derived: true, What: "the claim map: which card prose claims which proposal clause backs", Rows: []string{"TE-4.1b", "TE-4.1c"}},
		{Member: "principals", Derived: true, What: "credentials of clients the extended card is served to, each with id = the Agent SoW party it stands for (parties.offered_to agent key, handle or owner): one a directed proposal names and one it does not (declare it absent when no client has a directed offer)", Rows: []string{"TE-3.5f"}},
		{Member: "changeHook", Derived: true, What: "a URL that, on POST, publishes a changed standing proposal (POST ?revert=1 restores it)", Rows: []string{"TE-8.3a", "TE-8.3b", "TE-8.3c"}},
	}
}
