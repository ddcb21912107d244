/**
 * Consecutive steps share equal headers and answers in memory: a bundle must still show each request's own.
 */
import { describe, expect, it } from 'vitest';
import { createMockService } from '../../../mock/index.js';

describe('the recording of consecutive requests', () => {
  it('keeps each request its own headers and answer, equal or not to the one before', async () => {
    const mock = createMockService();
    const auth = { authorization: `Bearer ${mock.sandboxKey}` };
    const get = (path: string, headers: Record<string, string>) =>
      mock.fetch(`${mock.baseUrl}${path}`, { headers: { ...auth, ...headers } });
    const before = mock.bundle().steps.length;
    await get('/v2/account', { 'x-a': '1' });
    await get('/v2/account', { 'x-a': '1', 'x-b': '2' });
    await get('/v2/account', { 'x-a': '1' });
    await get('/v2/account', { 'x-a': '2' });
    await get('/v2/users/usr_missing', { 'x-a': '2' });
    const steps = mock.bundle().steps.slice(before);
    const headers = steps.map((step) => (step.type === 'request' ? step.headers : undefined));
    expect(headers.map((h) => [h?.['x-a'], h?.['x-b']])).toEqual([
      ['1', undefined],
      ['1', '2'],
      ['1', undefined],
      ['2', undefined],
      ['2', undefined],
    ]);
    const answers = steps.map((step) => (step.type === 'request' ? step.answer : undefined));
    expect(answers.slice(0, 4).every((a) => a?.status === 200 && a.digest === answers[0]?.digest)).toBe(true);
    expect(answers[4]?.status).toBe(404);
    expect(answers[4]?.digest).not.toBe(answers[0]?.digest);
  });
});
