import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Runs a snippet in a fresh Node process that resolves `inr-payouts` through package.json's exports. */
function node(args: string[], code: string): string {
  return execFileSync(process.execPath, [...args, code], { cwd: root, encoding: 'utf8' }).trim();
}

beforeAll(() => {
  // `npm test` on a fresh clone has no dist yet; CI builds first, so this only runs locally.
  if (!existsSync(`${root}/dist/index.js`))
    execFileSync('npx', ['tsup', '--silent'], { cwd: root, stdio: 'inherit' });
}, 180_000);

const probe = `
  const keys = (m) => Object.keys(m).sort().join(',');
  const out = {
    client: typeof c.PayoutClient, clientError: typeof c.APIError,
    verify: typeof w.verifyWebhook, sign: typeof w.signWebhook,
    mock: typeof m.createMockService,
    handler: typeof h.createWebhookHandler, stores: typeof h.postgresWebhookStore + typeof h.redisWebhookStore,
    otel: typeof o.traceClient,
  };
  console.log(JSON.stringify(out));
`;

const expected = {
  client: 'function',
  clientError: 'function',
  verify: 'function',
  sign: 'function',
  mock: 'function',
  handler: 'function',
  stores: 'functionfunction',
  otel: 'function',
};

describe('the built package (both module formats)', () => {
  it('loads every entry with import', () => {
    const output = node(
      ['--input-type=module', '-e'],
      `const c = await import('inr-payouts'); const w = await import('inr-payouts/webhooks'); const m = await import('inr-payouts/mock'); const h = await import('inr-payouts/webhooks/handler'); const o = await import('inr-payouts/otel');${probe}`,
    );
    expect(JSON.parse(output)).toEqual(expected);
  });

  it('loads every entry with require', () => {
    const output = node(
      ['-e'],
      `const c = require('inr-payouts'); const w = require('inr-payouts/webhooks'); const m = require('inr-payouts/mock'); const h = require('inr-payouts/webhooks/handler'); const o = require('inr-payouts/otel');${probe}`,
    );
    expect(JSON.parse(output)).toEqual(expected);
  });

  it('runs the client against the mock from the CommonJS build', () => {
    const output = node(
      ['-e'],
      `const { PayoutClient } = require('inr-payouts');
       const { createMockService } = require('inr-payouts/mock');
       const { setupServer } = require('msw/node');
       (async () => {
         const mock = createMockService();
         const server = setupServer(...mock.handlers);
         server.listen();
         const client = new PayoutClient({ apiKey: mock.sandboxKey, baseUrl: mock.baseUrl });
         const account = await client.account.retrieve();
         console.log(account.environment);
         server.close();
       })();`,
    );
    expect(output).toBe('sandbox');
  });
});
