// The ledger and chaos on the standalone server: `--chaos` and `GET /__mock/ledger`.
import { describe, expect, it } from 'vitest';
import { startServer } from './support.js';

describe('GET /__mock/ledger on the standalone server, under --chaos', () => {
  it('serves the ledger; with --chaos 5,rate=1,kinds=5xx every API request draws a 5xx', async () => {
    const server = await startServer(['--chaos', '5,rate=1,kinds=5xx,method=POST']);
    try {
      expect(server.output()).toMatch(/chaos: +seed 5/);
      const refused = await server.call(
        'POST',
        '/v2/users',
        { mobile: '9876543210' },
        { 'Idempotency-Key': 'k' },
      );
      expect([500, 502, 503, 504]).toContain(refused.status);
      expect((await server.call('GET', '/v2/account')).status).toBe(200);
      await server.helper('/faults/clear');
      expect(
        (await server.call('POST', '/v2/users', { mobile: '9876543210' }, { 'Idempotency-Key': 'k' })).status,
      ).toBe(201);
      const ledger = await fetch(`${server.url}/__mock/ledger`).then((r) => r.json());
      expect(ledger.data).toMatchObject({ ok: true, byIdempotencyKey: [{ key: 'k', users: 1 }] });
    } finally {
      await server.stop();
    }
  }, 30_000);
});
