// The performance targets `npm run bench` checks, in one place: each bench file measures some of them, and the
// run's summary (test/bench/summary.ts) lists all of them, PASS, FAIL or not measured in this run.

/** 'cost': subject / baseline, at most `bar`; 'speed': baseline / subject, at least `bar`; 'rate': per second. */
export interface Target {
  id: string;
  label: string;
  kind: 'cost' | 'speed' | 'rate';
  bar: number;
  /** The bench file that measures it. */
  file: string;
}

/** One target's figure in a run. */
export interface TargetResult {
  id: string;
  value: number;
  result: 'PASS' | 'FAIL';
}

/** The target as text: `<= 1.3x`, `>= 1,000/s`. */
export function barText(kind: Target['kind'], bar: number): string {
  if (kind === 'rate') return `>= ${bar.toLocaleString('en')}/s`;
  return `${kind === 'cost' ? '<=' : '>='} ${bar}x`;
}

const target = <const T extends Target>(t: T): T => t;

export const TARGETS = {
  mockRequest: target({
    id: 'mockRequest',
    label: 'in-process mock (client.account.retrieve() via setupServer) vs a trivial msw handler',
    kind: 'cost',
    bar: 1.3,
    file: 'test/bench/mock-request.bench.ts',
  }),
  mockFetch: target({
    id: 'mockFetch',
    label: 'in-process mock (client.account.retrieve() via mock.fetch) vs a trivial msw handler',
    kind: 'cost',
    bar: 0.7,
    file: 'test/bench/mock-request.bench.ts',
  }),
  suite: target({
    id: 'suite',
    label: 'a 50-file Vitest suite on the mock (mock.createClient()) vs the same on a trivial msw handler',
    kind: 'cost',
    bar: 1,
    file: 'test/bench/suite.bench.ts',
  }),
  suiteImport: target({
    id: 'suiteImport',
    label: "that suite's per-file import: inr-payouts/mock vs inr-payouts + msw + msw/node",
    kind: 'cost',
    bar: 1,
    file: 'test/bench/suite.bench.ts',
  }),
  lifecycles: target({
    id: 'lifecycles',
    label: 'complete transaction lifecycles on the virtual clock',
    kind: 'rate',
    bar: 1000,
    file: 'test/bench/mock.bench.ts',
  }),
  activityFlat: target({
    id: 'activityFlat',
    label: 'GET /v2/account/activity?limit=50, 100k vs 1k transactions stored',
    kind: 'cost',
    bar: 1.5,
    file: 'test/bench/mock.bench.ts',
  }),
  webhooksFlat: target({
    id: 'webhooksFlat',
    label: 'GET /v2/webhooks?limit=50, 100k vs 1k events stored',
    kind: 'cost',
    bar: 1.5,
    file: 'test/bench/mock.bench.ts',
  }),
  clientGet: target({
    id: 'clientGet',
    label: 'client GET (account.retrieve(), loopback) vs bare ky.get(url).json()',
    kind: 'cost',
    bar: 1.15,
    file: 'test/bench/transport.bench.ts',
  }),
  clientPost: target({
    id: 'clientPost',
    label: 'client POST (keyed, validated) vs bare ky.post(url, { json }).json()',
    kind: 'cost',
    bar: 1.15,
    file: 'test/bench/transport.bench.ts',
  }),
  verifyWebhook: target({
    id: 'verifyWebhook',
    label: 'verifyWebhook vs raw node:crypto (KeyObject made once) + JSON.parse',
    kind: 'speed',
    bar: 0.95,
    file: 'test/webhooks/verify.bench.ts',
  }),
  verifyWebhookAsync: target({
    id: 'verifyWebhookAsync',
    label: 'verifyWebhookAsync vs bare crypto.subtle.verify, key imported once',
    kind: 'speed',
    bar: 0.95,
    file: 'test/webhooks/verify.bench.ts',
  }),
} as const;
