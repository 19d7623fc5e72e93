// Command bundlecheck asserts what CI's container leg expects of a bundle (docker/ci-leg.sh):
//
//	bundlecheck -mode clean   -bundle B -image ID            every selected applicable row passed, from that image
//	bundlecheck -mode killed  -bundle B -image ID -toggle T  every row T targets is executed-fail
//	bundlecheck -mode blocked -bundle B                      no engine: every selected row blocked with the reason
//
// The bundle is verified first (schema, digests) as a third party would; exit 1 on any failed expectation. In the
// clean and killed modes every URL of the transcript beside it (each exchange's URL and redirect hops, dialled or
// refused) must name a loopback IP literal: the harness's client records every exchange, so this is the
// deterministic half of the leg's loopback check (docker/ci-leg.sh samples sockets for the other half).
package main
