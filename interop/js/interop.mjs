// Interop proof: the official A2A JavaScript SDK's CLIENT (@a2a-js/sdk 1.3.0, pinned in package.json) against an
// agent built on extconf's mock-agent server core.
//
//   node interop.mjs <agent card URL> [agents file]
//
// The agents file (written by interop/serve) lists the reference agents, one "agent <role> <card URL> <Authorization
// value or ->" line each; for every one of them, over JSON-RPC and HTTP+JSON: SendMessage (a Task, or a Message
// that carries contextId), GetTask (of that task, and of an unknown id), SendStreamingMessage when the card offers
// streaming, and GetExtendedAgentCard (the card when capabilities.extendedAgentCard, else UnsupportedOperationError).
//
// Prints one line per check ("PASS …" / "FAIL …") and exits 1 if any check fails, 2 on a usage error.
// For an https card URL signed by the test CA, run with NODE_EXTRA_CA_CERTS=fixtures/testpki/ca.pem.

import { readFileSync } from 'node:fs';
import { Role, TaskState, verifyAgentCardSignature } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver } from '@a2a-js/sdk/client';

const cardUrl = process.argv[2];
if (!cardUrl) {
  console.error('usage: node interop.mjs <agent card URL> [agents file]');
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

// ---- the reference agents (interop/serve's agents file) ----
const agentsFile = process.argv[3];
const agents = agentsFile
  ? readFileSync(agentsFile, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('agent '))
      .map((l) => {
        const [, role, url, ...auth] = l.split(' ');
        return { role, url, auth: auth.join(' ') === '-' ? '' : auth.join(' ') };
      })
  : [];
if (agentsFile && agents.length === 0) fail('reference agents', `no agent lines in ${agentsFile}`);

// expectError runs fn and checks it throws an SDK error named name.
async function expectError(name, fn) {
  try {
    await fn();
  } catch (err) {
    expect(err?.name === name, `got ${err?.name}: ${err?.message}`);
    return `${err.name}${err.statusCode ? ' (HTTP ' + err.statusCode + ')' : ''}`;
  }
  throw new Error('mismatch: the call succeeded');
}

for (const { role, url, auth } of agents) {
  // The credential travels as a service parameter: the SDK sends it as an HTTP header on every call.
  const callOpts = () => ({ ...opts(), ...(auth ? { serviceParameters: { Authorization: auth } } : {}) });
  let rcard;
  await check(`${role}: card fetched and parsed by the SDK resolver`, async () => {
    rcard = await new DefaultAgentCardResolver().resolve(url, '');
    expect(rcard.name && (rcard.supportedInterfaces ?? []).length > 0, 'name and interfaces');
    return `name="${rcard.name}", streaming ${!!rcard.capabilities?.streaming}, extended card ${!!rcard.capabilities?.extendedAgentCard}`;
  });
  if (!rcard) continue;
  for (const binding of ['JSONRPC', 'HTTP+JSON']) {
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { preferredTransports: [binding] }),
    );
    let client;
    await check(`${role} ${binding}: client created from the card`, async () => {
      client = await factory.createFromAgentCard(rcard);
      expect(client.transport?.protocolName === binding, `transport ${client.transport?.protocolName}`);
      return `protocol ${client.transport.protocolName}`;
    });
    if (!client) continue;

    let task;
    await check(`${role} ${binding}: SendMessage returns a Task or a Message carrying contextId`, async () => {
      const res = await client.sendMessage({ tenant: '', message: userMessage('hello'), metadata: undefined }, callOpts());
      if ('messageId' in res) {
        expect(res.contextId, 'the reply Message carries contextId');
        expect(res.role === Role.ROLE_AGENT, `role ${res.role}`);
        return `Message in context ${res.contextId}`;
      }
      expect(res.id && res.contextId && res.status, 'task id, contextId and status');
      task = res;
      return `task ${res.id} ${stateName(res.status.state)}`;
    });
    if (task) {
      await check(`${role} ${binding}: GetTask returns the task`, async () => {
        const got = await client.getTask({ tenant: '', id: task.id, historyLength: undefined }, callOpts());
        expect(got.id === task.id && got.contextId === task.contextId, `id ${got.id}, contextId ${got.contextId}`);
        return `task ${got.id} ${stateName(got.status?.state)}`;
      });
    }
    await check(`${role} ${binding}: GetTask of an unknown id is TaskNotFoundError`, () =>
      expectError('TaskNotFoundError', () => client.getTask({ tenant: '', id: 'no-such-task', historyLength: undefined }, callOpts())),
    );
    if (rcard.capabilities?.streaming) {
      await check(`${role} ${binding}: SendStreamingMessage yields events, then ends`, async () => {
        const seen = [];
        for await (const ev of client.sendMessageStream({ tenant: '', message: userMessage('hello'), metadata: undefined }, callOpts())) {
          const c = ev.payload?.$case;
          if (c === 'message') expect(ev.payload.value.contextId, 'a streamed Message carries contextId');
          seen.push(c === 'statusUpdate' ? `status:${stateName(ev.payload.value.status?.state)}` : String(c));
        }
        expect(seen.length > 0 && (seen[0] === 'task' || seen[0] === 'message'), `events ${JSON.stringify(seen)}`);
        return seen.join(' → ');
      });
    } else {
      console.log(`SKIP  ${role} ${binding}: SendStreamingMessage — the card does not offer streaming`);
    }
    if (rcard.capabilities?.extendedAgentCard) {
      await check(`${role} ${binding}: GetExtendedAgentCard returns a card`, async () => {
        const ext = await client.getAgentCard(callOpts()); // the SDK calls GetExtendedAgentCard when declared
        expect(ext?.name && (ext.supportedInterfaces ?? []).length > 0, 'name and interfaces');
        return `name="${ext.name}"`;
      });
    } else {
      // The Client skips the call for a card that does not declare it, so ask the transport; the Client's
      // A2A-Version header is then the caller's to send.
      await check(`${role} ${binding}: GetExtendedAgentCard is UnsupportedOperationError (not declared)`, () =>
        expectError('UnsupportedOperationError', () => {
          const o = callOpts();
          o.serviceParameters = { ...o.serviceParameters, 'A2A-Version': client.protocolVersion };
          return client.transport.getExtendedAgentCard({ tenant: '' }, o);
        }),
      );
    }
  }
}

console.log(`interop: ${checks} checks, ${failures} failed`);
process.exit(failures === 0 ? 0 : 1);
