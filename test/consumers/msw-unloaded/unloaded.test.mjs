// A project with msw installed that tests through mock.fetch: `inr-payouts/mock` must not load msw, in either
// module format. Each case runs in a fresh Node process; an ES module loader hook (module.register) records
// every URL the process resolves, and a CommonJS process reports its require.cache. The last cases load
// inr-payouts/mock/msw, so the same records show msw when it is loaded: the checks can fail.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

const HOOK =
  "import { appendFileSync } from 'node:fs';" +
  'export async function resolve(specifier, context, next) {' +
  '  const resolved = await next(specifier, context);' +
  "  appendFileSync(process.env.RESOLVED_LOG, resolved.url + '\\n');" +
  '  return resolved;' +
  '}';
const REGISTER = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOK)}`)});`;

/** The URLs an ES module script resolves, in a fresh process. */
function resolvedBy(code) {
  const dir = mkdtempSync(join(tmpdir(), 'msw-unloaded-'));
  const log = join(dir, 'urls.txt');
  writeFileSync(log, '');
  try {
    execFileSync(
      process.execPath,
      ['--import', `data:text/javascript,${encodeURIComponent(REGISTER)}`, '--input-type=module', '-e', code],
      { env: { ...process.env, RESOLVED_LOG: log }, encoding: 'utf8' },
    );
    return readFileSync(log, 'utf8').split('\n').filter(Boolean);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const isMsw = (path) => /[\\/]node_modules[\\/](msw|@mswjs)[\\/]/.test(path);
const FLOW = `const mock = createMockService();
  const client = mock.createClient();
  const user = await client.users.create({ mobile: '9876543210' });
  if (!user.userId.startsWith('usr_')) throw new Error('the mock answered no user');`;

test('msw is installed here', () => {
  assert.ok(resolvedBy("await import('msw')").some(isMsw));
});

test('import of inr-payouts/mock and a flow through mock.fetch resolve no msw module', () => {
  const urls = resolvedBy(`const { createMockService } = await import('inr-payouts/mock'); ${FLOW}`);
  assert.ok(urls.some((url) => url.includes('/inr-payouts/dist/mock.js')));
  assert.deepEqual(urls.filter(isMsw), []);
});

test('require of inr-payouts/mock and a flow through mock.fetch require no msw module', () => {
  const output = execFileSync(
    process.execPath,
    [
      '-e',
      `const { createMockService } = require('inr-payouts/mock');
       (async () => {
         ${FLOW}
         console.log(JSON.stringify(Object.keys(require.cache)));
       })();`,
    ],
    { encoding: 'utf8' },
  );
  const loaded = JSON.parse(output);
  assert.ok(loaded.some((path) => path.endsWith('mock.cjs')));
  assert.deepEqual(loaded.filter(isMsw), []);
});

test('inr-payouts/mock/msw loads msw, and its handlers serve setupServer', () => {
  const urls = resolvedBy(
    `const { createMockService } = await import('inr-payouts/mock');
     const { mswHandlers } = await import('inr-payouts/mock/msw');
     const { setupServer } = await import('msw/node');
     const mock = createMockService();
     const server = setupServer(...mswHandlers(mock));
     server.listen();
     const response = await fetch(mock.baseUrl + '/v2/account', {
       headers: { Authorization: 'Bearer ' + mock.sandboxKey },
     });
     server.close();
     if (response.status !== 200) throw new Error('msw did not hand the request to the mock');`,
  );
  assert.ok(urls.some(isMsw));
});
