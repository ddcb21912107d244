import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
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
       const { mswHandlers } = require('inr-payouts/mock/msw');
       const { setupServer } = require('msw/node');
       (async () => {
         const mock = createMockService();
         const server = setupServer(...mswHandlers(mock));
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

/**
 * Every module URL the ES module loader resolves in a fresh process running `code`, recorded by a resolve hook
 * (module.register), so a test sees what an import pulls in without trusting the package's word for it.
 */
function resolvedUrls(code: string): string[] {
  const hook =
    "import { appendFileSync } from 'node:fs';" +
    'export async function resolve(specifier, context, next) {' +
    '  const resolved = await next(specifier, context);' +
    "  appendFileSync(process.env.RESOLVED_LOG, resolved.url + '\\n');" +
    '  return resolved;' +
    '}';
  const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;
  const log = join(mkdtempSync(join(tmpdir(), 'inr-payouts-resolved-')), 'urls.txt');
  writeFileSync(log, '');
  execFileSync(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(register)}`, '--input-type=module', '-e', code],
    { cwd: root, encoding: 'utf8', env: { ...process.env, RESOLVED_LOG: log } },
  );
  const urls = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  rmSync(dirname(log), { recursive: true, force: true });
  return urls;
}

const FLOW = `const mock = m.createMockService();
  const user = await mock.createClient().users.create({ mobile: '9876543210' });
  if (!user.userId.startsWith('usr_')) throw new Error('no user');`;

describe('msw is loaded only through inr-payouts/mock/msw', () => {
  it('import of inr-payouts/mock, and a flow through mock.fetch, resolve no msw module', () => {
    const urls = resolvedUrls(`const m = await import('inr-payouts/mock'); ${FLOW}`);
    expect(urls.some((url) => url.endsWith('/dist/mock.js'))).toBe(true);
    expect(urls.filter((url) => url.includes('/node_modules/msw/'))).toEqual([]);
  });

  it('import of inr-payouts/mock/msw does resolve msw (the check above can fail)', () => {
    const urls = resolvedUrls(
      "const m = await import('inr-payouts/mock'); const { mswHandlers } = await import('inr-payouts/mock/msw');" +
        'if (mswHandlers(m.createMockService()).length !== 1) throw new Error("one handler");',
    );
    expect(urls.some((url) => url.includes('/node_modules/msw/'))).toBe(true);
  });

  it('require of inr-payouts/mock requires no msw module', () => {
    const output = node(
      ['-e'],
      `const m = require('inr-payouts/mock');
       (async () => {
         ${FLOW}
         const msw = (loaded) => loaded.filter((path) => path.includes('/node_modules/msw/')).length;
         const before = msw(Object.keys(require.cache));
         require('inr-payouts/mock/msw');
         console.log(JSON.stringify([before, msw(Object.keys(require.cache)) > 0]));
       })();`,
    );
    expect(JSON.parse(output)).toEqual([0, true]);
  });
});
