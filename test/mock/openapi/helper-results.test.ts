/**
 * Every test helper answers over HTTP what `openapi.mock.json` says it answers: each helper is called (its
 * documented object body, and `GET` with a query for the reading ones) on a running server, and each answer is
 * checked against the document's schema for that status, so a client generated from the document reads it with
 * no cast.
 */
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELPER_CONTRACT } from '../../../mock/contract/helpers.js';
import { type RunningMockServer, startMockServer } from '../../../mock/server/server.js';

type Json = Record<string, unknown>;
const doc = JSON.parse(readFileSync(new URL('../../../openapi.mock.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Json }> }>>;
  components: Json;
};

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ components: doc.components }, 'doc');

function schemaOf(path: string, method: string, status: number): Json {
  const response = doc.paths[path]?.[method]?.responses[String(status)];
  const content = response?.content?.['application/json'] as { schema?: Json } | undefined;
  if (!content?.schema) throw new Error(`openapi.mock.json declares no ${status} body for ${method} ${path}`);
  // Component references resolve against the document registered as `doc`.
  return JSON.parse(JSON.stringify(content.schema).replaceAll('"#/components/', '"doc#/components/'));
}

let server: RunningMockServer;
const checked = new Set<string>();

async function call(method: 'get' | 'post', path: string, body?: Json, query = ''): Promise<Json> {
  const response = await fetch(`${server.url}${path}${query}`, {
    method: method.toUpperCase(),
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const answer = (await response.json()) as Json;
  const validate = ajv.compile(schemaOf(path, method, response.status));
  expect(validate(answer), `${method} ${path} ${response.status}: ${ajv.errorsText(validate.errors)}`).toBe(
    true,
  );
  checked.add(`${method} ${path}`);
  return answer;
}

const post = async <T = Json>(name: string, body?: Json): Promise<T> =>
  (await call('post', `/__mock/${name}`, body)).data as T;

beforeAll(async () => {
  server = await startMockServer({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await server?.close();
});

describe('openapi.mock.json answers', () => {
  it('types what every helper answers, over POST and GET, and its refusals', async () => {
    await call('get', '/__mock');
    await post('reset', { seed: 'contract' });
    const account = await post<{ keys: { sandbox: string } }>('accounts.get'.replace('.', '/'));
    const key = account.keys.sandbox;
    await post('accounts/create', {});
    await post('accounts/update', { webhookUrl: 'http://127.0.0.1:9/hooks' });
    const { users } = await post<{ users: { userId: string }[] }>('seed', {
      users: [{ mobile: '+919876543210' }, { mobile: '+919876543212' }],
    });
    const userId = users[0]?.userId ?? '';
    const otherId = users[1]?.userId ?? '';
    await post('verification/complete', { userId, channel: 'email' }).catch(() => undefined);
    const api = (method: string, path: string, body?: Json) =>
      fetch(`${server.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'idempotency-key': crypto.randomUUID(),
        },
        body: body && JSON.stringify(body),
      }).then((r) => r.json() as Promise<{ data: Json }>);
    await api('POST', `/v2/users/${userId}/verify/mobile/send`);
    await post('otp/read', { userId, channel: 'mobile' });
    await call('get', '/__mock/otp/read', undefined, `?userId=${userId}&channel=mobile`);
    const verified = await post<{ userId: string }>('users/seedVerified', { mobile: '+919876543211' });
    await post('tranches/add', { tranches: [{ rate: '84.00', inrAmount: '100000' }] });
    await post('tranches/replace', { tranches: [{ rate: '84.00', inrAmount: '100000' }] });
    await post('tranches/list');
    await post('transactions/setExchangeRate', { rate: '84.10' });
    await post('transactions/confirmationMs', { network: 'polygon' });
    await call('get', '/__mock/transactions/confirmationMs', undefined, '?network=base');
    const created = await api('POST', '/v2/transactions', {
      userId: verified.userId,
      amount: '100',
      asset: 'USDT',
      network: 'polygon',
    });
    const transactionId = String(created.data.transactionId);
    const ms = await post<number>('transactions/simulateDeposit', { transactionId });
    await post('clock/advance', { duration: ms });
    await post('transactions/get', { transactionId });
    await call('get', '/__mock/transactions/get', undefined, `?transactionId=${transactionId}`);
    await post('transactions/completePayout', { transactionId });
    // A payout already completed: the refusal is typed too.
    await call('post', '/__mock/transactions/failPayout', { transactionId });
    await post('clock/now');
    await post('clock/pending');
    await post('clock/runDue');
    await post('faults/inject', { kind: 'error', status: 502, match: { path: '/v2/account' } });
    await post('faults/list');
    await post('faults/chaos', { seed: 1, rate: 0 });
    await post('faults/chaosLog');
    await post('faults/clear');
    await post('webhooks/trigger', { type: 'user.created' });
    await post('webhooks/settle');
    await post('webhooks/events', { type: 'user.created' });
    await post('webhooks/captured');
    await post('webhooks/sign', { payload: { hello: 'world' } });
    const locker = await api('POST', `/v2/users/${userId}/kyc/digilocker/init`, {
      redirectUrl: 'https://partner.example/back',
      deviceId: 'dev-1',
    });
    await post('digilocker/complete', { clientId: String(locker.data.clientId), outcome: 'approve' });
    const face = await api('POST', `/v2/users/${userId}/kyc/face/init`, {
      redirectUrl: 'https://partner.example/back',
      deviceId: 'dev-1',
    });
    await post('face/complete', { sessionId: String(face.data.sessionId), outcome: 'pass' });
    const otp = await api('POST', `/v2/users/${otherId}/kyc/aadhaar/otp/send`, {
      aadhaarNumber: '123412341234',
      deviceId: 'dev-1',
    });
    await post('kyc/aadhaarOtp', { referenceId: String(otp.data.referenceId) });
    await post('kyc/chooseOutcome', { userId, step: 'bank', outcome: 'verified' });
    const upload = await api('POST', `/v2/users/${userId}/kyc/document/upload-url`, {
      documentType: 'passport',
      fileName: 'a.pdf',
      mimeType: 'application/pdf',
      fileSize: 3,
      deviceId: 'dev-1',
    });
    await post('kyc/upload', { s3Key: String(upload.data.s3Key), contentType: 'application/pdf', size: 3 });
    await post('tranches/clear');
    await post('ledger');
    await post('journal', { type: 'helper' });
    await post('bundle');
    const snapshot = await post<Json>('snapshot');
    await post('restore', snapshot);
    // Refusals: an argument the contract refuses, something missing, a body that is not JSON.
    await call('post', '/__mock/clock/advance', { duration: -1 });
    await call('post', '/__mock/transactions/get', { transactionId: 'txn_missing' });
    const notJson = await fetch(`${server.url}/__mock/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '1h',
    });
    expect(notJson.status).toBe(415);
    await notJson.text();

    const served = Object.entries(HELPER_CONTRACT)
      .filter(([, spec]) => !('http' in spec))
      .map(([name]) => `post /__mock/${name.replace('.', '/')}`);
    expect(served.filter((op) => !checked.has(op))).toEqual([]);
  });

  it('still takes an older body form, though only objects are documented', async () => {
    const response = await fetch(`${server.url}/__mock/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '"1m"',
    });
    expect(response.status).toBe(200);
    await response.text();
  });
});
