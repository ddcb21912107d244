// Seeded chaos: faults drawn per request from a seeded generator, replayed exactly by the same seed.
import { describe, expect, it } from 'vitest';
import { parseChaosFlag } from '../../../mock/policies/chaos.js';
import { parseCli } from '../../../mock/server/cli.js';
import { mockServer } from '../support.js';

const mock = mockServer();

/** Status of each of `count` account reads, or `network` for a dropped connection. */
async function statuses(
  call: ReturnType<typeof mock.use>['call'],
  count: number,
): Promise<(number | string)[]> {
  const out: (number | string)[] = [];
  for (let i = 0; i < count; i++) {
    try {
      out.push((await call('GET', '/v2/account')).status);
    } catch {
      out.push('network');
    }
  }
  return out;
}

describe('helpers.faults.chaos (PRODUCT.md, proving the partner code)', () => {
  it('the same seed draws the same faults for the same requests; another seed draws others', async () => {
    const kinds = ['5xx', '429', 'drop', 'drop-after-commit'] as const;
    const runs = [];
    for (const seed of [7, 7, 8]) {
      const { service, call } = mock.use({ seed: 'chaos' });
      service.helpers.faults.chaos({ seed, rate: 0.4, kinds: [...kinds] });
      runs.push({ statuses: await statuses(call, 40), log: service.helpers.faults.chaosLog() });
    }
    const [a, b, c] = runs;
    expect(a).toEqual(b);
    expect(a?.statuses).not.toEqual(c?.statuses);
    // The draws really are faults of each kind asked for, and not every request.
    const drawn = new Set(a?.log.map((d) => d.kind));
    expect(drawn.size).toBeGreaterThan(2);
    expect(a?.statuses.filter((s) => s === 200).length).toBeGreaterThan(10);
    expect(a?.log.every((d) => d.method === 'GET' && d.path === '/v2/account')).toBe(true);
  });

  it('a 5xx answers in the route shape; a 429 burst refuses the next requests too, like the real limit', async () => {
    const { service, call } = mock.use();
    service.helpers.faults.chaos({ seed: 3, rate: 1, kinds: ['5xx'] });
    const answer = await call('GET', '/v2/account');
    expect([500, 502, 503, 504]).toContain(answer.status);
    expect(answer.body).toMatchObject({ message: `Injected fault: the mock answered ${answer.status}` });
    service.helpers.faults.chaos({ seed: 3, rate: 1, kinds: ['429'] });
    const limited = await call('GET', '/v2/account');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ error: 'Rate Limit Exceeded', retryAfter: 1 });
  });

  it('drop-after-commit does the work and loses the answer; drop loses the request', async () => {
    const { service, call } = mock.use();
    service.helpers.faults.chaos({
      seed: 1,
      rate: 1,
      kinds: ['drop-after-commit'],
      match: { method: 'POST' },
    });
    await expect(call('POST', '/v2/users', { body: { mobile: '9876543210' } })).rejects.toThrow();
    expect(Object.keys(service.state.users.byId)).toHaveLength(1);
    service.helpers.faults.chaos({ seed: 1, rate: 1, kinds: ['drop'] });
    await expect(call('POST', '/v2/users', { body: { mobile: '9876543211' } })).rejects.toThrow();
    expect(Object.keys(service.state.users.byId)).toHaveLength(1);
    // GET requests did not match the first chaos; the log shows exactly what was drawn.
    expect(service.helpers.faults.chaosLog()).toEqual([
      { request: 1, method: 'POST', path: '/v2/users', kind: 'drop' },
    ]);
  });

  it('latency holds a request for latencyMs (real ms) before it runs', async () => {
    const { service, call } = mock.use();
    service.helpers.faults.chaos({ seed: 1, rate: 1, kinds: ['latency'], latencyMs: 5 });
    expect((await call('GET', '/v2/account')).status).toBe(200);
    expect(service.helpers.faults.chaosLog()[0]).toMatchObject({ kind: 'latency' });
  });

  it('placed faults are taken first; rate 0 draws nothing; clear() ends chaos', async () => {
    const { service, call } = mock.use();
    service.helpers.faults.chaos({ seed: 1, rate: 1, kinds: ['5xx'] });
    service.helpers.faults.inject({ kind: 'error', status: 418 });
    expect((await call('GET', '/v2/account')).status).toBe(418);
    service.helpers.faults.clear();
    expect(service.state.http.chaos).toBeUndefined();
    expect(await statuses(call, 5)).toEqual([200, 200, 200, 200, 200]);
    service.helpers.faults.chaos({ seed: 1, rate: 0 });
    expect(await statuses(call, 5)).toEqual([200, 200, 200, 200, 200]);
  });

  it('a snapshot carries the generator, so a restore replays the same faults from there', async () => {
    const { service, call } = mock.use();
    service.helpers.faults.chaos({ seed: 'replay', rate: 0.5, kinds: ['5xx', '429'] });
    await statuses(call, 3);
    const saved = service.helpers.snapshot();
    const first = await statuses(call, 20);
    service.helpers.restore(saved);
    expect(await statuses(call, 20)).toEqual(first);
  });

  it('refuses bad options with the rule broken, and changes nothing', () => {
    const { service } = mock.use();
    expect(() => service.helpers.faults.chaos({ seed: 1, rate: 2 })).toThrow(/field rate must be at most 1/);
    expect(() => service.helpers.faults.chaos({ seed: 1, kinds: ['fire' as never] })).toThrow(
      /field kinds.0/,
    );
    expect(() => service.helpers.faults.chaos({ seed: '' })).toThrow(/seed/);
    expect(service.state.http.chaos).toBeUndefined();
  });

  it('--chaos <seed>[,rate=..,kinds=..] on the server', () => {
    expect(parseChaosFlag('42,rate=0.3,kinds=5xx+drop-after-commit,latency=500,method=post')).toEqual({
      seed: '42',
      rate: 0.3,
      kinds: ['5xx', 'drop-after-commit'],
      latencyMs: 500,
      match: { method: 'post' },
    });
    expect(parseCli(['--chaos', '9']).chaos).toEqual({ seed: '9' });
    expect(() => parseCli(['--chaos', '9,rate=lots'])).toThrow(/rate[\s\S]*Usage/);
    expect(() => parseCli(['--chaos', '9,speed=1'])).toThrow(/unknown setting 'speed=1'/);
  });
});
