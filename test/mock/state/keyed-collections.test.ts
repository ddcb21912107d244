/**
 * No input reaches the prototype chain: every route of the route table and every helper, called with
 * `__proto__`, `constructor` and other inherited member names in every ID position (path, query, body),
 * answers without a 5xx, finds nothing, changes nothing, and leaves `Object.prototype` as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pipelineModule } from '../../../mock/http/pipeline-module.js';
import { modules } from '../../../mock/routes/index.js';
import { listHelpers } from '../../../mock/server/helpers-api.js';
import { type RunningMockServer, startMockServer } from '../../../mock/server/server.js';
import { KEYED_COLLECTIONS, sliceOf } from '../../../mock/state/keyed-collections.js';
import { stateWithoutRateWindows } from '../server/support.js';

const EVIL = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'];
const ID_FIELDS = [
  'accountId',
  'userId',
  'transactionId',
  'eventId',
  'clientId',
  'sessionId',
  'referenceId',
  's3Key',
  'id',
];

let server: RunningMockServer;
let prototypeNames: string[];

beforeAll(async () => {
  prototypeNames = Object.getOwnPropertyNames(Object.prototype).sort();
  server = await startMockServer({ port: 0, service: { seed: 'prototype' } });
});
afterAll(async () => {
  await server.close();
});

const stateText = () => stateWithoutRateWindows(server.service.state);

function expectPrototypeUntouched(): void {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeNames);
  const probe: Record<string, unknown> = {};
  for (const name of ['status', 'mobileVerified', 'accountId', 'userId', 'level', 'data']) {
    expect(probe[name], `Object.prototype.${name}`).toBeUndefined();
  }
  for (const [slice, collection] of KEYED_COLLECTIONS) {
    const value = sliceOf(server.service.state as never, slice)[collection];
    if (value !== undefined) expect(Object.getPrototypeOf(value), `${slice}.${collection}`).toBeNull();
  }
}

async function send(method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${server.service.sandboxKey}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

function idBody(evil: string): Record<string, string> {
  return Object.fromEntries(ID_FIELDS.map((field) => [field, evil]));
}

describe('IDs named like inherited members are unknown IDs', () => {
  it('every route with every path parameter, query and body ID set to such a name: no 5xx, nothing found, nothing changed', async () => {
    const routes = [pipelineModule, ...modules]
      .flatMap((m) => m.routes)
      .filter((def) => def.path.includes(':'));
    expect(routes.length).toBeGreaterThan(20);
    for (const def of routes) {
      for (const evil of EVIL) {
        const path = def.path.replace(/:(\w+)/g, () => encodeURIComponent(evil));
        const query = `?${ID_FIELDS.map((field) => `${field}=${encodeURIComponent(evil)}`).join('&')}`;
        const method = def.method === 'ALL' ? 'POST' : def.method;
        const before = stateText();
        const body = method === 'GET' || method === 'DELETE' ? undefined : idBody(evil);
        const answer = await send(method, `${path}${query}`, body);
        const label = `${method} ${path} → ${answer.status} ${answer.text.slice(0, 200)}`;
        expect(answer.status, label).toBeLessThan(500);
        expect([400, 404, 409, 422], label).toContain(answer.status);
        expect(stateText(), label).toBe(before);
        expectPrototypeUntouched();
      }
    }
  });

  it('the upload target and the pages find no upload or session by such a name', async () => {
    for (const evil of EVIL) {
      const before = stateText();
      const upload = await fetch(`${server.url}/__uploads/${encodeURIComponent(evil)}`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/pdf' },
        body: new Uint8Array([37, 80, 68, 70]),
      });
      expect(upload.status, `PUT /__uploads/${evil}`).toBe(404);
      for (const page of ['digilocker', 'face']) {
        const shown = await fetch(`${server.url}/__pages/${page}/${encodeURIComponent(evil)}`);
        expect(shown.status, `GET /__pages/${page}/${evil}`).toBe(404);
      }
      expect(stateText()).toBe(before);
      expectPrototypeUntouched();
    }
  });

  it('every helper with such a name in every ID position: no 5xx, and a refusal changes nothing', async () => {
    const helpers = listHelpers(server.service);
    const calls = Object.entries(helpers).flatMap(([group, actions]) =>
      actions.map((action) => (group ? `${group}/${action}` : action)),
    );
    expect(calls.length).toBeGreaterThan(25);
    for (const call of calls) {
      if (call === 'reset' || call === 'webhooks/useFetch') continue;
      for (const evil of EVIL) {
        for (const argument of [idBody(evil), evil, { args: [evil, idBody(evil)] }]) {
          const before = stateText();
          const answer = await send('POST', `/__mock/${call}`, argument);
          const label = `${call}(${JSON.stringify(argument).slice(0, 60)}) → ${answer.status} ${answer.text.slice(0, 200)}`;
          expect(answer.status, label).toBeLessThan(500);
          if (answer.status >= 400) expect(stateText(), label).toBe(before);
          expectPrototypeUntouched();
        }
      }
      // Whatever a helper accepted, the service still answers.
      expect((await send('GET', '/v2/account')).status).toBe(200);
      await send('POST', '/__mock/reset');
    }
  });

  it('the cases reported: an account, a user and a transaction named __proto__ are not found', async () => {
    const update = await send('POST', '/__mock/accounts/update', { accountId: '__proto__', status: 'x' });
    expect(update.status).toBe(404);
    const complete = await send('POST', '/__mock/verification/complete', {
      userId: '__proto__',
      channel: 'mobile',
    });
    expect(complete.status).toBe(404);
    const got = await send('POST', '/__mock/transactions/get', '__proto__');
    expect(got.status).toBe(404);
    expectPrototypeUntouched();
    expect((await send('GET', '/v2/account')).status).toBe(200);
  });
});
