package certify

import "github.com/extconf/extconf/refclients/skiface"

// SkillInterfaceSchema is the Skill Interface Schema (version 1.0) a client under test validates describe_skill's
// documents with (SI-9.20, SI-12.10b: "the unmodified standard schema"), and its pinned digest (SHA-256 over its
// JCS form, SI-12.9a): `runsuite client --print-schema` hands it to an outside client, which otherwise has no way to
// get the copy the certification grades against.
func SkillInterfaceSchema() (schema []byte, digest string) {
	return skiface.TrustedSchema(), skiface.TrustedSchemaDigest
}
