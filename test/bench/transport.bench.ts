// Targets: the client's own work on top of ky at most 1.15x a bare ky call of the same loopback URL, GET
// (`ky.get(url).json()`) and POST (`ky.post(url, { json }).json()`), same run, contenders interleaved. The client goes
// through everything a partner's call does: the real PayoutClient, headers, an idempotency key on the POST, the retry
// policy, the envelope and zod validation of the account. A raw `fetch` is shown beside them for reference.
// Run: npm run bench -- test/bench/transport.bench.ts
import { Account, PayoutClient } from 'inr-payouts';
import ky from 'ky';
import { afterAll, beforeAll, bench, describe } from 'vitest';
import { startLoopback } from './loopback.js';
import { measureInterleaved, printRatios } from './ratio.js';
import { TARGETS } from './targets.js';

let loop: Awaited<ReturnType<typeof startLoopback>>;
let client: PayoutClient;
let url = '';
const headers = { Authorization: 'Bearer pk_sandbox_bench' };
const body = { webhookUrl: 'https://acme.test/webhooks', developerFeePercent: 1.5 };

const contenders = {
  fetch: async () => (await fetch(url, { headers })).json(),
  ky: () => ky.get(url, { headers }).json(),
  kyPost: () => ky.post(url, { headers, json: body }).json(),
  client: () => client.account.retrieve(),
  clientPost: () => client.request({ method: 'POST', path: '/v2/account', body, dataSchema: Account }),
};

beforeAll(async () => {
  loop = await startLoopback();
  url = `${loop.url}/v2/account`;
  client = new PayoutClient({ apiKey: 'pk_sandbox_bench', baseUrl: loop.url });
});
afterAll(async () => {
  // Warm every contender's connections and code paths before measuring.
  await measureInterleaved(contenders, { rounds: 4, batch: 50 });
  const micros = await measureInterleaved(contenders, { rounds: 1200, batch: 5 });
  printRatios('client per-request cost (loopback /v2/account)', micros, [
    { target: TARGETS.clientGet, subject: 'client', baseline: 'ky' },
    { target: TARGETS.clientPost, subject: 'clientPost', baseline: 'kyPost' },
    {
      label: 'bare ky GET vs raw fetch (ky itself, for reference)',
      subject: 'ky',
      baseline: 'fetch',
      kind: 'cost',
      bar: 1.5,
    },
  ]);
  await loop.close();
}, 300_000);

describe('per-request cost on loopback', () => {
  bench('raw fetch GET', async () => {
    await contenders.fetch();
  });
  bench('bare ky.get().json()', async () => {
    await contenders.ky();
  });
  bench('bare ky.post(url, { json }).json()', async () => {
    await contenders.kyPost();
  });
  bench('PayoutClient account.retrieve()', async () => {
    await contenders.client();
  });
  bench('PayoutClient POST (client.request)', async () => {
    await contenders.clientPost();
  });
});
