/**
 * Consecutive steps share equal headers and answers in memory: a bundle must still show each request's own,
 * whether the request came through `mock.fetch` or straight to the service's `dispatch` (what msw's handler and
 * the standalone server call).
 */
import { describe, expect, it } from 'vitest';
import { createMockService, type MockService } from '../../../mock/index.js';

type Get = (url: string, headers: Record<string, string>) => Promise<Response | undefined>;

const forms: Array<[string, () => { mock: MockService; send: Get }]> = [
  [
    'a fetch Request',
    () => {
      const mock = createMockService();
      return { mock, send: (url, headers) => mock.fetch(url, { headers }) };
    },
  ],
  [
    'dispatch',
    () => {
      const mock = createMockService();
      return { mock, send: (url, headers) => mock.dispatch(new Request(url, { headers })) };
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
