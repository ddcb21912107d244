// Quality bar (README, Benchmarks): the client's per-request cost <= 1.15x a bare `ky.get().json()` and <= 2.0x a raw
// `fetch` of the same loopback URL, same run. The client goes through everything a partner's call does: the
// real PayoutClient, headers, the retry loop, the envelope and zod validation of the account.
// Run: npm run bench -- test/bench/transport.bench.ts
import { PayoutClient } from 'inr-payouts';
import ky from 'ky';
import { afterAll, beforeAll, bench, describe } from 'vitest';
import { startLoopback } from './loopback.js';
import { measureInterleaved, printRatios } from './ratio.js';

let loop: Awaited<ReturnType<typeof startLoopback>>;
let client: PayoutClient;
let url = '';
const headers = { Authorization: 'Bearer pk_sandbox_bench' };

const contenders = {
  fetch: async () => (await fetch(url, { headers })).json(),
  ky: () => ky.get(url, { headers }).json(),
  client: () => client.account.retrieve(),
};

beforeAll(async () => {
  loop = await startLoopback();
  url = `${loop.url}/v2/account`;
  client = new PayoutClient({ apiKey: 'pk_sandbox_bench', baseUrl: loop.url });
});
afterAll(async () => {
  const micros = await measureInterleaved(contenders);
  printRatios('client per-request cost (loopback GET /v2/account)', micros, [
    { label: 'client vs bare ky.get().json()', subject: 'client', baseline: 'ky', kind: 'cost', bar: 1.15 },
    { label: 'client vs raw fetch', subject: 'client', baseline: 'fetch', kind: 'cost', bar: 2.0 },
  ]);
  await loop.close();
}, 120_000);

describe('per-request cost on loopback', () => {
  bench('raw fetch', async () => {
    await contenders.fetch();
  });
  bench('bare ky.get().json()', async () => {
    await contenders.ky();
  });
  bench('PayoutClient account.retrieve()', async () => {
    await contenders.client();
  });
});
