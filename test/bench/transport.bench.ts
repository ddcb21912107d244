import ky from 'ky';
import { afterAll, beforeAll, bench, describe } from 'vitest';
import * as z from 'zod/mini';
import { resolveClientOptions } from '../../src/core/options.js';
import { Transport } from '../../src/core/transport.js';
import { startLoopback } from './loopback.js';

let loop: Awaited<ReturnType<typeof startLoopback>>;
let transport: Transport;
const schema = z.looseObject({
  id: z.string(),
  name: z.string(),
  environment: z.string(),
  status: z.string(),
});

beforeAll(async () => {
  loop = await startLoopback();
  transport = new Transport(resolveClientOptions({ apiKey: 'pk_sandbox_bench', baseUrl: loop.url }));
});
afterAll(() => loop.close());

describe('per-request cost on loopback', () => {
  bench('raw fetch', async () => {
    const r = await fetch(`${loop.url}/v2/account`, {
      headers: { Authorization: 'Bearer pk_sandbox_bench' },
    });
    await r.json();
  });
  bench('bare ky.get().json()', async () => {
    await ky.get(`${loop.url}/v2/account`, { headers: { Authorization: 'Bearer pk_sandbox_bench' } }).json();
  });
  bench('inr-payouts transport', async () => {
    await transport.request({ method: 'GET', path: '/v2/account', dataSchema: schema });
  });
});
