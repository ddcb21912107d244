// CI's generated-client proof: @hey-api/openapi-ts generates a client from openapi.json and openapi.mock.json
// (examples/generated-client/openapi-ts.config.mjs, under Node 24, which it needs), TypeScript checks the flow that
// uses it (no cast, no hand-written type), and the flow runs the demo's whole path against a fresh standalone
// server (dist/, from the build). Exits 1 when any step fails.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { root, startMock } from '../support.mjs';
import { ensureTools, node24Env } from './tools.mjs';

const example = join(root, 'examples/generated-client');
const tool = ensureTools();

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: example, stdio: 'inherit', ...options });
  if (result.status !== 0) {
    console.error(`FAIL ${command} ${args.join(' ')}`);
    process.exit(1);
  }
}

run(tool('openapi-ts'), ['-f', 'openapi-ts.config.mjs', '--no-log-file'], { env: node24Env() });
run(join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json']);
const server = await startMock();
try {
  run(join(root, 'node_modules/.bin/tsx'), ['flow.ts', server.url]);
  console.log('PASS the generated client ran the whole flow');
} finally {
  await server.stop();
}
