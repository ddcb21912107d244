// Every line the package ships for a partner to copy, as a partner on today's stack meets it: read from the
// installed tarball (node_modules/inr-payouts), compiled in this fresh project under the strictest flags
// (strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess) with TypeScript 7 and 5.9, then run:
// - the ts blocks of README.md and docs/*.md: compiled (they are fragments that use your userId, your request;
//   the names they take from your code are declared from ambient.json, which the repository's guide test shares,
//   and a `client` or `mock` they use without making one is the mock's, as for TSDoc below);
// - every file of examples/: compiled, and run in place with the command the README gives
//   (`npx tsx node_modules/inr-payouts/examples/<file>`), the Vitest file copied into the project and run by Vitest;
// - every fenced TSDoc @example of dist/*.d.ts: compiled and run against the mock, one process for all of them.
// The msw the row installed (2 or 3) serves the examples; a last check proves its guard is on: a request no
// handler serves fails under `onUnhandled('error')` instead of reaching the network.
// Prints one line per step; exits 1 on the first failing step.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { ambientFor, toModule } from './fragments.mjs';

const pkg = 'node_modules/inr-payouts';
const msw = JSON.parse(readFileSync('node_modules/msw/package.json', 'utf8')).version;
console.log(`Node ${process.version}, msw ${msw}`);

function step(label, command, args, options = {}) {
  const started = Date.now();
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 << 20, ...options });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status === 0) {
    console.log(`ok   ${label} (${seconds} s)`);
    return;
  }
  console.log(`FAIL ${label} (${seconds} s)\n${`${result.stdout ?? ''}${result.stderr ?? ''}`.trim()}`);
  process.exit(1);
}

const lineOf = (text, index) => text.slice(0, index).split('\n').length;
rmSync('src', { recursive: true, force: true });
for (const dir of ['src/docs', 'src/examples/webhooks', 'src/tsdoc']) mkdirSync(dir, { recursive: true });

// examples/, copied as they ship, so the compiler checks them under this project's flags.
const exampleFiles = ['', 'webhooks/'].flatMap((sub) =>
  readdirSync(`${pkg}/examples/${sub}`)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `${sub}${f}`),
);
for (const file of exampleFiles) cpSync(`${pkg}/examples/${file}`, `src/examples/${file}`);

// README and guides: each ts block a module of its own.
const guides = [
  'README.md',
  ...readdirSync(`${pkg}/docs`)
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
let blocks = 0;
for (const file of guides) {
  const text = readFileSync(`${pkg}/${file}`, 'utf8');
  for (const match of text.matchAll(/```ts\n([\s\S]*?)```/g)) {
    const code = match[1] ?? '';
    const name = `${file.replace(/[/.]/g, '_')}_${lineOf(text, match.index)}`;
    writeFileSync(
      `src/docs/${name}.ts`,
      `// ${file}:${lineOf(text, match.index)}\n${ambientFor(code)}\n${toModule(code)}`,
    );
    blocks += 1;
  }
}

// TSDoc: the fenced blocks under @example in the ES module declarations.
const tsdoc = [];
for (const file of readdirSync(`${pkg}/dist`).filter((f) => f.endsWith('.d.ts'))) {
  const text = readFileSync(`${pkg}/dist/${file}`, 'utf8');
  for (const comment of text.matchAll(/\/\*\*([\s\S]*?)\*\//g)) {
    const body = (comment[1] ?? '').replace(/^[ \t]*\* ?/gm, '');
    const at = body.indexOf('@example');
    if (at < 0) continue;
    for (const block of body.slice(at).matchAll(/```(?:ts|typescript)\n([\s\S]*?)```/g)) {
      const name = `example-${tsdoc.length}`;
      writeFileSync(
        `src/tsdoc/${name}.ts`,
        `// dist/${file}:${lineOf(text, comment.index)}\n${toModule(block[1] ?? '')}`,
      );
      tsdoc.push(name);
    }
  }
}
console.log(
  `${blocks} blocks of README.md and docs/, ${exampleFiles.length} examples, ${tsdoc.length} TSDoc examples`,
);
if (blocks < 30 || exampleFiles.length < 10 || tsdoc.length < 100) {
  console.log('FAIL fewer lines than the package ships: is the tarball complete?');
  process.exit(1);
}

const tsconfig = {
  compilerOptions: {
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    target: 'es2022',
    lib: ['es2023', 'dom', 'dom.iterable'],
    module: 'nodenext',
    moduleResolution: 'nodenext',
    moduleDetection: 'force',
    types: ['node'],
    skipLibCheck: true,
    noEmit: true,
  },
  include: ['src/**/*.ts'],
};
writeFileSync('tsconfig.json', `${JSON.stringify(tsconfig, null, 2)}\n`);
step('TypeScript 7, strictest flags', 'node', ['node_modules/typescript-7/bin/tsc', '-p', 'tsconfig.json']);
step('TypeScript 5.9, strictest flags', 'node', ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json']);

// Run in place, as the README says a partner runs them.
for (const file of exampleFiles.filter((f) => !f.endsWith('.test.ts'))) {
  step(`examples/${file}`, 'npx', ['tsx', `${pkg}/examples/${file}`], { timeout: 180_000 });
}
mkdirSync('tests', { recursive: true });
for (const file of exampleFiles.filter((f) => f.endsWith('.test.ts'))) {
  cpSync(`${pkg}/examples/${file}`, `tests/${file.replace('webhooks/', '')}`);
}
step('examples/*.test.ts, copied and run by Vitest', 'npx', ['vitest', 'run', 'tests'], { timeout: 300_000 });

// All TSDoc examples in one process, one after another (each closes the msw server it opened).
const runner = tsdoc.map((name) => `await import('./src/tsdoc/${name}.ts');`).join('\n');
writeFileSync('run-tsdoc.mts', `${runner}\n`);
step(`${tsdoc.length} TSDoc examples`, 'npx', ['tsx', 'run-tsdoc.mts'], { timeout: 300_000 });

// The guard the examples rely on is on under this msw: an unhandled request fails, and nothing is reached.
writeFileSync(
  'guard.mts',
  `import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMockService } from 'inr-payouts/mock';
import { mswHandlers, onUnhandled } from 'inr-payouts/mock/msw';
import { setupServer } from 'msw/node';
let reached = 0;
const real = createServer((_q, s) => { reached += 1; s.end('reached'); });
await new Promise<void>((done) => real.listen(0, '127.0.0.1', done));
const server = setupServer(...mswHandlers(createMockService()));
server.listen(onUnhandled('error'));
const { port } = real.address() as AddressInfo;
const failed = await fetch('http://127.0.0.1:' + port + '/not-mocked').then(() => false, () => true);
server.close();
real.close();
if (!failed || reached !== 0) throw new Error('onUnhandled(\\'error\\') let a request through: the guard is off');
`,
);
step(`onUnhandled('error') fails an unhandled request on msw ${msw}`, 'npx', ['tsx', 'guard.mts']);
console.log('every shipped line compiled and ran');
