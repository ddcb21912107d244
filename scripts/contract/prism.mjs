// CI's Prism proof: Prism's validating proxy (`prism proxy --errors`, under Node 24, which it needs) in front of a
// fresh standalone server checks every request and answer against openapi.json while HTTP traffic runs through it:
// Portman's contract tests, the generated client's whole flow (its helper calls go straight to the server: they
// are not the API), and injected faults (500, 502, 503, 504, 429 and a 4XX no operation lists), an idempotent
// replay and the API's own refusals. Any violation Prism reports, or any answer it had to make itself, fails.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { freePort, launch, root, startMock } from '../support.mjs';
import { runPortman } from './portman.mjs';
import { ensureTools, node24Env } from './tools.mjs';

const tool = ensureTools();
const server = await startMock();
const port = await freePort();
const prism = launch(
  tool('prism'),
  ['proxy', join(root, 'openapi.json'), server.url, '--errors', '-h', '127.0.0.1', '-p', String(port)],
  { env: node24Env() },
);
await prism.ready((log) => log.includes('Prism is listening'), 'prism');
const proxy = `http://127.0.0.1:${port}`;
const problems = [];
try {
  if ((await runPortman(proxy, server.key)) !== 0)
    problems.push('Portman contract tests failed through Prism');

  const flow = spawnSync(join(root, 'node_modules/.bin/tsx'), ['flow.ts', proxy, server.url], {
    cwd: join(root, 'examples/generated-client'),
    stdio: 'inherit',
  });
  if (flow.status !== 0) problems.push('the generated-client flow failed through Prism');

  // Faults and refusals: each answer must be one the document declares for its operation.
  const helper = (name, body) =>
    fetch(`${server.url}/__mock/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => r.json());
  // Read, not the key the server printed: the flow above reset the sandbox with a seed, and so a key, of its own.
  const key = (await helper('accounts/get', {})).data.keys.sandbox;
  const api = (method, path, body, headers = {}) =>
    fetch(`${proxy}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
      body: body && JSON.stringify(body),
    });
  const expectStatus = async (what, response, status) => {
    await response.text();
    if (response.status !== status) problems.push(`${what}: answered ${response.status}, expected ${status}`);
  };
  for (const status of [500, 502, 503, 504, 429, 418]) {
    await helper('faults/inject', { kind: 'error', status, match: { path: '/v2/account' } });
    await expectStatus(`an injected ${status}`, await api('GET', '/v2/account'), status);
    await helper('faults/inject', { kind: 'error', status, match: { path: '/v2/users' } });
    await expectStatus(
      `an injected ${status} on a create`,
      await api('POST', '/v2/users', { mobile: '9123456780' }),
      status,
    );
  }
  const idempotencyKey = crypto.randomUUID();
  const create = () =>
    api('POST', '/v2/users', { mobile: '9123456781' }, { 'idempotency-key': idempotencyKey });
  await expectStatus('a create', await create(), 201);
  await expectStatus('its replay', await create(), 200);
  await expectStatus('the same mobile again', await api('POST', '/v2/users', { mobile: '9123456781' }), 409);
  await expectStatus('an unknown transaction', await api('GET', '/v2/transactions/txn_unknown'), 404);
} finally {
  prism.child.kill('SIGTERM');
  await server.stop();
}
// Only the traffic counts: the route list Prism prints before it listens fills path parameters with random
// lorem words, "error" among them. Prism marks each violation it found in a request or an answer, and each error
// it answered itself, with ✖.
const traffic = prism.seen.output.split('Prism is listening').slice(1).join('').split('\n');
const violations = traffic.filter((line) => /✖|Violation|Request terminated/.test(line));
const received = traffic.filter((line) => line.includes('Request received')).length;
if (received < 40) problems.push(`only ${received} requests went through Prism`);
for (const line of violations) console.error(line);
for (const problem of problems) console.error(`FAIL ${problem}`);
const failed = violations.length > 0 || problems.length > 0;
console.log(
  `${failed ? 'FAIL' : 'PASS'} Prism validating proxy: ${received} requests, ${violations.length} violations`,
);
process.exit(failed ? 1 : 0);
