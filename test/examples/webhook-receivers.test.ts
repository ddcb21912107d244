// Every webhook receiver the guides and examples show, started as shown and graded by check-receiver: no check
// fails or warns. A guide's block runs as written, with one line added that exports what it built (its handler,
// its app) so the test can serve it; PostgreSQL and Redis are real servers (test/setup/services.ts).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { toNodeHandler } from 'inr-payouts/webhooks/handler';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookApp } from '../../examples/webhooks/express.js';
import { webhookReceiver } from '../../examples/webhooks/fetch-handler.js';
import { createWebhookServer } from '../../examples/webhooks/node-http.js';
import { createReceiver } from '../../examples/webhooks/production.js';
import { checkReceiver, type ReceiverReport } from '../../mock/index.js';
import { root } from '../docs/tsdoc-examples.js';
import { type RunningService, redisMissing, startPostgres, startRedis } from '../setup/services.js';

const SECRET = 'whsec_guide_receivers';
const NEXT = 'whsec_guide_receivers_next';
const GUIDES = [
  'README.md',
  'docs/webhooks.md',
  'docs/webhooks-in-production.md',
  'docs/checking-your-receiver.md',
];

/** Each `ts` block of a guide that builds a receiver, where it is. */
const blocks = GUIDES.flatMap((file) => {
  const text = readFileSync(join(root, file), 'utf8');
  return (
    [...text.matchAll(/```ts\n([\s\S]*?)```/g)]
      // A block that is a test file (the README's, run as printed by test/docs/readme-test.test.ts) hands its
      // receiver the mock's deliveries in-process; every other block is a receiver to serve.
      .filter(
        (m) => (m[1] ?? '').includes('createWebhookHandler(') && !(m[1] ?? '').includes("from 'vitest'"),
      )
      .map((m) => ({ where: `${file}:${text.slice(0, m.index).split('\n').length}`, code: m[1] ?? '' }))
  );
});

/** What a block built, by the name it gave it; the test serves the first it finds. */
const BUILT = [
  ['app', /^const app = (express|Fastify)\(\);$/m],
  ['POST', /^export const POST = createWebhookHandler\(/m],
  ['handler', /^const handler = createWebhookHandler\(/m],
] as const;
/** Clients a block opened, ended after the run. */
const CLIENTS = [
  ['pool', /^const pool = new pg\.Pool\(/m],
  ['redis', /^const redis = createClient\(/m],
] as const;

const dir = join(root, `.guide-receivers-${process.pid}`);
const closers: (() => Promise<unknown>)[] = [];
let postgres: RunningService | undefined;
let redis: RunningService | undefined;

beforeAll(async () => {
  mkdirSync(dir, { recursive: true });
  const missing = await redisMissing();
  if (missing) throw new Error(missing);
  [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  // What the guides' blocks read: the secret, the database the "orders" of their examples live in, Redis.
  process.env.INR_PAYOUTS_WEBHOOK_SECRET = SECRET;
  process.env.INR_PAYOUTS_API_KEY = 'pk_sandbox_guide_receivers';
  process.env.INR_PAYOUTS_BASE_URL = 'http://127.0.0.1:9'; // the tracing block's client, never called
  process.env.DATABASE_URL = postgres.url;
  process.env.REDIS_URL = redis.url;
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query('CREATE TABLE orders (payout_id text PRIMARY KEY, paid_utr text)');
  await admin.end();
}, 120_000);

afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
  await Promise.all([postgres?.stop(), redis?.stop()]);
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

async function serve(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
}

/** The checks that did not pass, with what they got and the fix. */
const notPassed = (report: ReceiverReport, allowed: string[] = []) =>
  report.checks
    .filter((check) => check.grade !== 'pass' && !allowed.includes(check.name))
    .map((check) => `${check.grade} ${check.name}: ${check.received} | ${check.fix ?? ''}`);

describe('the receivers of the guides, graded by check-receiver', () => {
  it('finds the receivers of the guides', () => {
    expect(blocks.map((block) => block.where.split(':')[0])).toEqual(
      expect.arrayContaining(['README.md', 'docs/webhooks.md', 'docs/webhooks-in-production.md']),
    );
  });

  it.each(blocks.map((block) => [block.where, block] as const))(
    '%s passes every check',
    async (_, block) => {
      const built = BUILT.find(([, pattern]) => pattern.test(block.code));
      if (!built)
        throw new Error(`${block.where}: a receiver this test does not know how to serve; teach BUILT`);
      const opened = CLIENTS.filter(([, pattern]) => pattern.test(block.code)).map(([name]) => name);
      const path = join(dir, `${block.where.replace(/[/:.]/g, '_')}.ts`);
      const added = built[0] === 'POST' ? opened : [built[0], ...opened]; // POST is exported by the block
      writeFileSync(path, `${block.code}\n${added.length > 0 ? `export { ${added.join(', ')} };` : ''}\n`);
      const module = (await import(path)) as Record<string, unknown>;
      for (const name of opened) {
        const client = module[name] as { end?: () => Promise<unknown>; quit?: () => Promise<unknown> };
        closers.push(async () => (name === 'pool' ? client.end?.() : client.quit?.()));
      }
      const receiver = module[built[0]];
      let url: string;
      if (built[0] !== 'app') url = await serve(createServer(toNodeHandler(receiver as never)));
      else if (block.code.includes('Fastify()')) {
        const app = receiver as { listen(o: object): Promise<string>; close(): Promise<unknown> };
        url = `${await app.listen({ port: 0, host: '127.0.0.1' })}/webhooks`;
        closers.push(() => app.close());
      } else url = await serve(createServer(receiver as never));
      const report = await checkReceiver({ url, secret: SECRET, retryDelay: 0 });
      // One secret in the environment: the rotation check is skipped, and every other check passes.
      expect(notPassed(report, ['rotation']), block.where).toEqual([]);
    },
    60_000,
  );
});

describe('the receivers of examples/webhooks/, graded by check-receiver', () => {
  const examples: [string, () => Server][] = [
    ['node-http.ts', () => createWebhookServer([SECRET, NEXT], [])],
    ['express.ts', () => createServer(createWebhookApp([SECRET, NEXT], []))],
    ['fetch-handler.ts', () => createServer(toNodeHandler(webhookReceiver([SECRET, NEXT], [])))],
    ['production.ts', () => createServer(toNodeHandler(createReceiver([SECRET, NEXT], new Map())))],
  ];
  it.each(examples)('%s passes every check, rotation included', async (_, build) => {
    const report = await checkReceiver({ url: await serve(build()), secret: [SECRET, NEXT], retryDelay: 0 });
    expect(notPassed(report)).toEqual([]);
    expect(report.counts).toEqual({ pass: 13, fail: 0, warn: 0, skip: 0 });
  });
});
