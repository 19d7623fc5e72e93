// Package strictjson decodes the harness's own formats (the target configuration, the evidence bundle, limits)
// strictly: encoding/json alone matches member names case-insensitively, lets the last of two duplicate members
// win and ignores what follows the first value, so a misspelt or doubled member could silently change a run.
package strictjson
