// Interop proof: the official A2A JavaScript SDK's CLIENT (@a2a-js/sdk 1.3.0, pinned in package.json) against an
// agent built on extconf's mock-agent server core.
//
//   node interop.mjs <agent card URL>
//
// Prints one line per check ("PASS …" / "FAIL …") and exits 1 if any check fails, 2 on a usage error.
// For an https card URL signed by the test CA, run with NODE_EXTRA_CA_CERTS=fixtures/testpki/ca.pem.

import { Role, TaskState, verifyAgentCardSignature } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver } from '@a2a-js/sdk/client';

const cardUrl = process.argv[2];
if (!cardUrl) {
  console.error('usage: node interop.mjs <agent card URL>');
  process.exit(2);
}

const TIMEOUT_MS = 5000;
let failures = 0;
let checks = 0;

function pass(name, detail) {
  checks++;
  console.log(`PASS  ${name}${detail ? ' — ' + detail : ''}`);
}

function fail(name, why) {
  checks++;
  failures++;
  console.log(`FAIL  ${name} — ${why}`);
}

// check runs fn; fn returns a detail string on success and throws on mismatch.
async function check(name, fn) {
  try {
    pass(name, await fn());
  } catch (err) {
    fail(name, err instanceof Error ? `${err.name}: ${err.message}` : String(err));
  }
}

function expect(cond, what) {
  if (!cond) throw new Error(`mismatch: ${what}`);
}

const stateName = (s) => TaskState[s] ?? String(s);
const textOf = (part) => (part?.content?.$case === 'text' ? part.content.value : undefined);
const opts = () => ({ signal: AbortSignal.timeout(TIMEOUT_MS) });

function userMessage(text) {
  return {
    messageId: `interop-${Date.now()}-${Math.random().toString(16).slice(2)}`,
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text', value: text }, filename: '', mediaType: '', metadata: undefined }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

// ---- the card, through the SDK's resolver ----
let card;
await check('card: fetched and parsed by the SDK resolver', async () => {
  card = await new DefaultAgentCardResolver().resolve(cardUrl, '');
  const bindings = (card.supportedInterfaces ?? []).map((i) => `${i.protocolBinding}@${i.protocolVersion}`);
  expect(card.name, 'card.name present');
  expect(bindings.includes('JSONRPC@1.0') && bindings.includes('HTTP+JSON@1.0'), `interfaces ${bindings}`);
  expect(card.capabilities?.streaming === true, 'capabilities.streaming');
  return `name="${card.name}", interfaces ${bindings.join(', ')}`;
});
if (!card) {
  console.log(`interop: ${checks} checks, ${failures} failed`);
  process.exit(1);
}

// ---- the card's JWS (A2A §8.4), verified by the SDK's own JCS + jose code ----
const retrieveKey = async (kid, jku) => {
  expect(jku, 'protected header carries jku');
  const res = await fetch(jku, opts());
  expect(res.ok, `GET ${jku}: ${res.status}`);
  const { keys } = await res.json();
  const key = keys.find((k) => k.kid === kid);
  expect(key, `kid ${kid} in ${jku}`);
  expect(!('d' in key), 'the JWKS holds public keys only');
  return key;
};
const signed = (card.signatures ?? []).length > 0;
if (signed) {
  await check('card signature: verifies with the SDK (JCS payload, detached JWS, key from jku)', async () => {
    await verifyAgentCardSignature(retrieveKey)(card);
    return `${card.signatures.length} signature(s)`;
  });
  await check('card signature: a changed member no longer verifies (negative control)', async () => {
    let refused = false;
    const logDebug = console.debug; // the SDK logs each failed entry; the failure is the expected outcome here
    console.debug = () => {};
    try {
      await verifyAgentCardSignature(retrieveKey)({ ...card, name: card.name + ' (tampered)' });
    } catch {
      refused = true;
    } finally {
      console.debug = logDebug;
    }
    expect(refused, 'tampered card was accepted');
    return 'refused';
  });
} else {
  console.log('SKIP  card signature — the card carries no signatures');
}

// ---- per binding: SendMessage, GetTask, TaskNotFound, streaming ----
for (const binding of ['JSONRPC', 'HTTP+JSON']) {
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { preferredTransports: [binding] }),
  );
  let client;
  await check(`${binding}: client created from the card`, async () => {
    client = await factory.createFromAgentCard(card);
    expect(client.transport?.protocolName === binding, `transport ${client.transport?.protocolName}`);
    return `protocol ${client.transport.protocolName}, A2A-Version ${client.protocolVersion}`;
  });
  if (!client) continue;

  const text = `hello over ${binding}`;
  const sent = userMessage(text);
  let task;
  await check(`${binding}: SendMessage returns a completed task echoing the message`, async () => {
    const res = await client.sendMessage({ tenant: '', message: sent, metadata: undefined }, opts());
    expect(!('messageId' in res), 'result is a Task, not a Message');
    task = res;
    expect(task.id && task.contextId, 'task id and contextId');
    expect(task.status?.state === TaskState.TASK_STATE_COMPLETED, `state ${stateName(task.status?.state)}`);
    expect(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(task.status?.timestamp ?? ''), `timestamp ${task.status?.timestamp}`);
    expect(task.artifacts?.length === 1 && textOf(task.artifacts[0].parts[0]) === text, 'artifact echoes the text');
    expect(task.history?.[0]?.messageId === sent.messageId, 'history holds the sent message');
    return `task ${task.id} ${stateName(task.status.state)}`;
  });

  if (task) {
    await check(`${binding}: GetTask returns the same task`, async () => {
      const got = await client.getTask({ tenant: '', id: task.id, historyLength: undefined }, opts());
      expect(got.id === task.id && got.contextId === task.contextId, `id ${got.id}`);
      expect(got.status?.state === TaskState.TASK_STATE_COMPLETED, `state ${stateName(got.status?.state)}`);
      expect(textOf(got.artifacts?.[0]?.parts?.[0]) === text, 'artifact text');
      return `task ${got.id} ${stateName(got.status.state)}`;
    });

    await check(`${binding}: ListTasks includes the task`, async () => {
      const req = {
        tenant: '',
        contextId: task.contextId,
        status: TaskState.TASK_STATE_UNSPECIFIED,
        pageSize: undefined,
        pageToken: '',
        historyLength: undefined,
        statusTimestampAfter: undefined,
        includeArtifacts: undefined,
      };
      const list = await client.listTasks(req, opts());
      expect(list.tasks?.length === 1 && list.tasks[0].id === task.id, `tasks ${JSON.stringify(list.tasks?.map((t) => t.id))}`);
      expect(list.nextPageToken === '', `nextPageToken ${JSON.stringify(list.nextPageToken)}`);
      return `${list.tasks.length} task in context ${task.contextId}`;
    });

    await check(`${binding}: CancelTask of the completed task is TaskNotCancelableError`, async () => {
      try {
        await client.cancelTask({ tenant: '', id: task.id, metadata: undefined }, opts());
      } catch (err) {
        expect(err?.name === 'TaskNotCancelableError', `got ${err?.name}: ${err?.message}`);
        return `${err.name}${err.statusCode ? ' (HTTP ' + err.statusCode + ')' : ''}`;
      }
      throw new Error('mismatch: the call succeeded');
    });
  }

  await check(`${binding}: GetTask of an unknown id is TaskNotFoundError`, async () => {
    try {
      await client.getTask({ tenant: '', id: 'no-such-task', historyLength: undefined }, opts());
    } catch (err) {
      expect(err?.name === 'TaskNotFoundError', `got ${err?.name}: ${err?.message}`);
      return `${err.name}${err.statusCode ? ' (HTTP ' + err.statusCode + ')' : ''}`;
    }
    throw new Error('mismatch: the call succeeded');
  });

  await check(`${binding}: SendStreamingMessage yields task → artifact → completed, then ends`, async () => {
    const streamed = `streamed over ${binding}`;
    const seen = [];
    for await (const ev of client.sendMessageStream({ tenant: '', message: userMessage(streamed), metadata: undefined }, opts())) {
      const c = ev.payload?.$case;
      const v = ev.payload?.value;
      if (c === 'task') seen.push(`task:${stateName(v.status?.state)}`);
      else if (c === 'artifactUpdate') seen.push(`artifact:${textOf(v.artifact?.parts?.[0])}`);
      else if (c === 'statusUpdate') seen.push(`status:${stateName(v.status?.state)}`);
      else seen.push(String(c));
    }
    const want = ['task:TASK_STATE_SUBMITTED', `artifact:${streamed}`, 'status:TASK_STATE_COMPLETED'];
    expect(JSON.stringify(seen) === JSON.stringify(want), `events ${JSON.stringify(seen)}`);
    return seen.join(' → ');
  });
}

console.log(`interop: ${checks} checks, ${failures} failed`);
process.exit(failures === 0 ? 0 : 1);
