/**
 * Consecutive steps share equal headers and answers in memory: a bundle must still show each request's own,
 * whether the request came as a fetch `Request` or as plain values (the standalone server's requests), whose
 * headers as received are compared with the last request's.
 */
import { describe, expect, it } from 'vitest';
import { createMockService } from '../../../mock/index.js';
import { createServedSimulation, type MockSimulation } from '../../../mock/simulation.js';

type Get = (url: string, headers: Record<string, string>) => Promise<Response | undefined>;

const forms: Array<[string, () => { mock: MockSimulation; send: Get }]> = [
  [
    'a fetch Request',
    () => {
      const mock = createMockService();
      return { mock, send: (url, headers) => mock.fetch(url, { headers }) };
    },
  ],
  [
    'plain values',
    () => {
      const served = createServedSimulation();
      const send: Get = async (url, headers) => {
        const rawHeaders = Object.entries(headers).flat();
        return (await served.serve({ method: 'GET', url, rawHeaders, body: new Uint8Array(0) }))?.sent;
      };
      return { mock: served.simulation, send };
    },
  ],
];

describe('the recording of consecutive requests', () => {
  it.each(forms)(
    'keeps each request its own headers and answer, equal or not to the one before (%s)',
    async (_, make) => {
      const { mock, send } = make();
      const auth = { authorization: `Bearer ${mock.sandboxKey}` };
      const get = (path: string, headers: Record<string, string>) =>
        send(`${mock.baseUrl}${path}`, { ...auth, ...headers });
      const before = mock.bundle().steps.length;
      await get('/v2/account', { 'x-a': '1' });
      await get('/v2/account', { 'x-a': '1', 'x-b': '2' });
      await get('/v2/account', { 'x-a': '1' });
      await get('/v2/account', { 'x-a': '1' });
      await get('/v2/account', { 'x-a': '2' });
      await get('/v2/users/usr_missing', { 'x-a': '2' });
      const steps = mock.bundle().steps.slice(before);
      const headers = steps.map((step) => (step.type === 'request' ? step.headers : undefined));
      expect(headers.map((h) => [h?.['x-a'], h?.['x-b']])).toEqual([
        ['1', undefined],
        ['1', '2'],
        ['1', undefined],
        ['1', undefined],
        ['2', undefined],
        ['2', undefined],
      ]);
      expect(steps.map((step) => (step.type === 'request' ? step.path : undefined))).toEqual([
        '/v2/account',
        '/v2/account',
        '/v2/account',
        '/v2/account',
        '/v2/account',
        '/v2/users/usr_missing',
      ]);
      const answers = steps.map((step) => (step.type === 'request' ? step.answer : undefined));
      expect(answers.slice(0, 5).every((a) => a?.status === 200 && a.digest === answers[0]?.digest)).toBe(
        true,
      );
      expect(answers[5]?.status).toBe(404);
      expect(answers[5]?.digest).not.toBe(answers[0]?.digest);
    },
  );
});
