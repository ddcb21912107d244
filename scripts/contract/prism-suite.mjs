// CI's second Prism proof: the project's own HTTP tests (test/mock/server/, the standalone-server halves of the
// routing, ledger, upload-route and webhook suites, the demo over HTTP), faults included, with every standalone server they start
// reached through Prism's validating proxy for openapi.json
// (test/mock/server/support.ts, `throughPrism`). Prism runs without `--errors` here: the suite sends invalid
// requests on purpose, and they must reach the mock, not be answered by Prism. The verdict is read from Prism's
// log: no answer may violate the document, no request may fail in Prism, and every request Prism finds invalid
// must be one the mock refused too (a 4xx); a request the contract forbids but the mock accepts is a finding.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from '../support.mjs';
import { ensureTools, node24Env } from './tools.mjs';

const tool = ensureTools();
const log = join(mkdtempSync(join(tmpdir(), 'inr-prism-')), 'prism.log');
// Each server starts a Prism of its own (seconds) and every request crosses it: the suite's own time limits, set
// for a server on its own, are tripled here.
const limits = ['--hookTimeout', '30000', '--testTimeout', '60000'];
const tests = spawnSync(
  join(root, 'node_modules/.bin/vitest'),
  [
    'run',
    '--project',
    'default',
    ...limits,
    'test/mock/server',
    'test/mock/http/router.test.ts',
    'test/mock/observe/ledger.test.ts',
    'test/mock/routes/kyc/storage.test.ts',
    'test/mock/operations/webhooks.test.ts',
    'test/examples/demo-server.test.ts',
  ],
  {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      INR_PRISM_BIN: tool('prism'),
      INR_PRISM_PATH: node24Env().PATH,
      INR_PRISM_LOG: log,
    },
  },
);

const problems = [];
if (tests.status !== 0) problems.push('the HTTP tests failed through Prism');
let text = '';
try {
  text = readFileSync(log, 'utf8');
} catch {
  problems.push('Prism wrote no log');
}
// One block per request: "Request received", the upstream's status, then any violations Prism found.
const blocks = text.split(/(?=\[HTTP SERVER\] \S+ \S+ .*Request received)/).slice(1);
let requestViolations = 0;
for (const block of blocks) {
  const head = /\[HTTP SERVER\] (\S+ \S+)/.exec(block)?.[1] ?? '?';
  const status = Number(/has returned (\d{3})/.exec(block)?.[1]);
  for (const line of block.split('\n')) {
    if (/Violation: response/.test(line)) problems.push(`${head} -> ${status}: ${line.trim()}`);
    if (/Request terminated with error/.test(line)) problems.push(`${head}: ${line.trim()}`);
    if (/✖.*Violation: request/.test(line)) {
      requestViolations += 1;
      if (!(status >= 400 && status < 500))
        problems.push(`${head} -> ${status}, though Prism finds the request invalid: ${line.trim()}`);
    }
  }
}
if (blocks.length < 150) problems.push(`only ${blocks.length} requests went through Prism`);
for (const problem of problems) console.error(`FAIL ${problem}`);
console.log(
  `${problems.length ? 'FAIL' : 'PASS'} the HTTP tests through Prism: ${blocks.length} requests, ` +
    `${requestViolations} invalid on purpose (all refused by the mock), ${problems.length} problems`,
);
process.exit(problems.length ? 1 : 0);
