// A small schema-interface client on the official A2A JS SDK (@a2a-js/sdk 1.3.0), speaking the driver contract of
// `runsuite client` (README "Certify your client"):
//
//   runsuite client --cmd 'NODE_EXTRA_CA_CERTS=$EXTCONF_CA_FILE node interop/js/siclient.mjs'
//
// It does what a thin client does: reads the card with the SDK's resolver, checks the advertisement, calls
// describe_skill, verifies the interface digest (JCS, RFC 8785) against the advertised and the returned one and
// the document's skill_id / skill_version, then sends the skill request object and reports the result. It does NOT
// validate instances against the document's JSON Schemas (no validator in the SDK): the certification should show
// that (SI-8.9, SI-9.36, SI-9.59, SI-9.60a, …) — a subset of the client rows, on purpose.
import { createHash, randomUUID } from 'node:crypto';
import { Role, TaskState } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver } from '@a2a-js/sdk/client';

const URI = 'https://agentic-network-management.github.io/agent-schema-interfaces/extensions/schema-interface/v1';
const env = process.env;
const say = (o) => process.stdout.write(JSON.stringify(o) + '\n');
const refuse = (reason, message) => say({ outcome: 'refused', reason, report: { message } });
// A condition this client detects itself (before or instead of a remote task) is reported as local.
const refuseLocal = (reason, message) => say({ outcome: 'refused', reason, local: true, report: { message } });

if (env.EXTCONF_ACTION === 'version') {
  // It implements the invoke action only: the harness runs no other scenario and reads those rows inapplicable.
  say({ name: 'extconf interop schema-interface client (@a2a-js/sdk 1.3.0)', version: '0.1.0', actions: ['invoke'] });
  process.exit(0);
}
if (env.EXTCONF_ACTION !== 'invoke') {
  refuse('unsupported_action', `only invoke is spoken; got ${env.EXTCONF_ACTION}`);
  process.exit(0);
}

// RFC 8785: ECMAScript number and string serialization, members sorted by UTF-16 code units.
function jcs(v) {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return '[' + v.map(jcs).join(',') + ']';
  return '{' + Object.keys(v).sort().map((k) => JSON.stringify(k) + ':' + jcs(v[k])).join(',') + '}';
}
const digestOf = (v) => 'sha256:' + createHash('sha256').update(jcs(v), 'utf8').digest('hex');

const timeoutMs = Math.max(1000, (Number(env.EXTCONF_TIMEOUT_SECONDS) || 30) * 1000 - 1000);
const headers = { 'A2A-Extensions': URI };
if (env.EXTCONF_AUTH_HEADER) headers[env.EXTCONF_AUTH_HEADER] = env.EXTCONF_AUTH_VALUE ?? '';
const opts = () => ({ signal: AbortSignal.timeout(timeoutMs), serviceParameters: headers });

const dataMessage = (data) => ({
  messageId: randomUUID(), contextId: '', taskId: '', role: Role.ROLE_USER,
  parts: [{ content: { $case: 'data', value: data }, filename: '', mediaType: 'application/json', metadata: undefined }],
  metadata: undefined, extensions: [URI], referenceTaskIds: [],
});

// The first Data Part of the task's artifacts whose data names the skill.
function resultData(res, skill) {
  if (!res || 'messageId' in res) return undefined;
  for (const a of res.artifacts ?? []) {
    for (const p of a.parts ?? []) {
      if (p.content?.$case === 'data' && p.content.value?.skill === skill) return p.content.value;
    }
  }
  return undefined;
}

try {
  const skill = env.EXTCONF_SKILL;
  const args = JSON.parse(env.EXTCONF_ARGUMENTS || '{}');
  const card = await new DefaultAgentCardResolver().resolve(env.EXTCONF_CARD_URL, '');
  const ext = (card.capabilities?.extensions ?? []).find((x) => x.uri === URI);
  const hasDescribe = (card.skills ?? []).some((s) => s.id === 'describe_skill');
  const entry = (ext?.params?.skills ?? []).find((s) => s.skill_id === skill);
  if (!ext || !hasDescribe || !entry || !(card.skills ?? []).some((s) => s.id === skill)) {
    refuseLocal('skill_not_advertised', `the card does not advertise ${skill} under the schema-interface extension with describe_skill`);
    process.exit(0);
  }
  if (ext.params.interface_version !== '1.0') {
    refuseLocal('unsupported_interface_version', `interface_version ${JSON.stringify(ext.params.interface_version)}`);
    process.exit(0);
  }
  // The caller's version, when it names one, is the advertised one exactly: no range is inferred.
  if (env.EXTCONF_SKILL_VERSION && env.EXTCONF_SKILL_VERSION !== entry.skill_version) {
    refuseLocal('skill_not_advertised', `the card advertises ${skill} ${entry.skill_version}, not ${env.EXTCONF_SKILL_VERSION}`);
    process.exit(0);
  }
  const client = await new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { preferredTransports: ['JSONRPC'] }),
  ).createFromAgentCard(card);

  const described = await client.sendMessage({ tenant: '', message: dataMessage({ skill: 'describe_skill', arguments: { skill_id: skill } }), metadata: undefined }, opts());
  if ('messageId' in described || described.status?.state !== TaskState.TASK_STATE_COMPLETED) {
    refuse('interface_unavailable', 'describe_skill did not complete');
    process.exit(0);
  }
  const r = resultData(described, 'describe_skill')?.result;
  const doc = r?.interface;
  if (!doc || typeof doc !== 'object') {
    refuseLocal('interface_invalid', 'describe_skill returned no interface object');
    process.exit(0);
  }
  const calculated = digestOf(doc);
  if (calculated !== entry.interface_digest || r.interface_digest !== entry.interface_digest) {
    refuseLocal('interface_invalid', `digest mismatch: advertised ${entry.interface_digest}, returned ${r.interface_digest}, calculated ${calculated}`);
    process.exit(0);
  }
  if (doc.skill_id !== skill || doc.skill_version !== entry.skill_version) {
    refuseLocal('interface_invalid', `the document is for ${doc.skill_id} ${doc.skill_version}`);
    process.exit(0);
  }

  // The caller's local permission and approval run whatever the document's authority member says.
  if (env.EXTCONF_LOCAL_POLICY === 'deny' || env.EXTCONF_LOCAL_POLICY === 'no-approval') {
    refuseLocal('authorization_failed', `the local policy (${env.EXTCONF_LOCAL_POLICY}) stops the invocation`);
    process.exit(0);
  }
  const request = { skill, skill_version: entry.skill_version, interface_digest: entry.interface_digest, arguments: args };
  const res = await client.sendMessage({ tenant: '', message: dataMessage(request), metadata: undefined }, opts());
  if ('messageId' in res || res.status?.state !== TaskState.TASK_STATE_COMPLETED) {
    refuse('error', `the task ended ${'messageId' in res ? 'as a Message' : TaskState[res.status?.state]}`);
    process.exit(0);
  }
  say({ outcome: 'completed', output: resultData(res, skill)?.result ?? null, report: { task: res.id } });
} catch (err) {
  refuse('error', err instanceof Error ? `${err.name}: ${err.message}` : String(err));
}
