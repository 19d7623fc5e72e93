// Package falsify runs the falsification matrix: the reference agents with no toggle (every applicable row must
// pass: the positive control), then one run per toggle, in which every targeted row must fail, then one run per
// latitude over the whole of its documents, in which no row may fail (the latitude survives). The result is the
// falsifiability table that goes into the evidence bundle.
package falsify
