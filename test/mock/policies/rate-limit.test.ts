import { describe, expect, it } from 'vitest';
import { mockServer } from '../support.js';

const mock = mockServer();
const START_UNIX = Date.parse('2025-01-01T00:00:00.000Z') / 1000;

describe('7.6, 8: API rate limit', () => {
  it('8: every answer carries X-RateLimit-Limit, -Remaining and -Reset', async () => {
    const { call } = mock.use({ account: { limits: { rateLimit: 3 } } });
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const answer = await call('GET', '/v2/anything');
      expect(answer.headers.get('X-RateLimit-Limit')).toBe('3');
      expect(answer.headers.get('X-RateLimit-Reset')).toBe(String(START_UNIX + 60));
      remaining.push(answer.headers.get('X-RateLimit-Remaining'));
    }
    expect(remaining).toEqual(['2', '1', '0']);
  });

  it('7.6: beyond limits.rateLimit per minute, 429 Rate Limit Exceeded with retryAfter and the headers', async () => {
    const { service, call } = mock.use({ account: { limits: { rateLimit: 2 } } });
    await call('GET', '/v2/a');
    await service.clock.advance('20s');
    await call('POST', '/v2/users', { body: { mobile: '9876543210' } });
    const limited = await call('POST', '/v2/users', { body: { mobile: '9876543211' } });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      error: 'Rate Limit Exceeded',
      message: 'Too many requests for this account; retry after 40 seconds',
      retryAfter: 40,
    });
    expect(limited.headers.get('X-RateLimit-Limit')).toBe('2');
    expect(limited.headers.get('X-RateLimit-Remaining')).toBe('0');
    expect(limited.headers.get('X-RateLimit-Reset')).toBe(String(START_UNIX + 60));
    expect(Object.keys(service.state.users.byId)).toHaveLength(1);
  });

  it('8: the window resets on the virtual clock one minute after it opened', async () => {
    const { service, call } = mock.use({ account: { limits: { rateLimit: 1 } } });
    expect((await call('GET', '/v2/a')).status).toBe(404);
    await service.clock.advance('59s');
    const still = await call('GET', '/v2/a');
    expect(still.status).toBe(429);
    expect(still.body.retryAfter).toBe(1);
    await service.clock.advance('1s');
    const fresh = await call('GET', '/v2/a');
    expect(fresh.status).toBe(404);
    expect(fresh.headers.get('X-RateLimit-Reset')).toBe(String(START_UNIX + 120));
  });

  it('8: the limit is per account, and rejected keys are not counted', async () => {
    const { service, call } = mock.use({ account: { limits: { rateLimit: 1 } } });
    const other = service.helpers.accounts.create({ limits: { rateLimit: 1 } });
    await call('GET', '/v2/a', { key: 'pk_sandbox_wrong' });
    expect((await call('GET', '/v2/a')).status).toBe(404);
    expect((await call('GET', '/v2/a')).status).toBe(429);
    expect((await call('GET', '/v2/a', { key: other.keys.sandbox })).status).toBe(404);
  });
});
