// The shell blocks of the guides run here. The mock server's page (docs/mock-server.md) is followed as a reader
// would: its `sh` blocks, in order, in one bash, against the real server on a free port (the conformance guide's
// run in test/docs/conformance-guide.test.ts). The other guides' shell blocks are npm commands; each must name a
// script or a package this repository really has.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../mock/server/support.js';
import { root } from './tsdoc-examples.js';

const run = promisify(execFile);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string;
  scripts: Record<string, string>;
  bin: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};

function shellBlocks(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(/```(?:sh|bash)\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
}

const MOCK_SERVER_PAGE = 'docs/mock-server.md';
/** Pages whose shell blocks run for real: this file's below, and test/docs/conformance-guide.test.ts. */
const RUN_FOR_REAL = [MOCK_SERVER_PAGE, 'docs/checking-the-mock-against-your-sandbox.md'];
const otherFiles = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md') && !RUN_FOR_REAL.includes(`docs/${f}`))
    .map((f) => `docs/${f}`),
];

describe('npm commands in the guides', () => {
  const commands = otherFiles.flatMap((file) =>
    shellBlocks(file).flatMap((block) =>
      block
        .split('\n')
        .map((line) => line.replace(/#.*$/, '').trim())
        .filter(Boolean)
        .flatMap((line) => line.split('&&').map((part) => ({ file, command: part.trim() }))),
    ),
  );

  it.each(commands.map(({ file, command }) => [file, command]))(
    '%s: `%s` names something real',
    (_, command) => {
      const words = command.split(/\s+/);
      if (words[0] === 'npm' && words[1] === 'run') expect(Object.keys(pkg.scripts)).toContain(words[2]);
      else if (words[0] === 'npm' && words[1] === 'test') expect(pkg.scripts.test).toBeDefined();
      else if (words[0] === 'npm' && words[1] === 'install') {
        const named = words.slice(2).filter((w) => !w.startsWith('-'));
        for (const name of named) expect([pkg.name, ...Object.keys(pkg.peerDependencies)]).toContain(name);
      } else if (words[0] === 'npx') expect(Object.keys(pkg.bin)).toContain(words[1]);
      else if (words[0] === 'bash' && words[1]) expect(existsSync(join(root, words[1]))).toBe(true);
      else throw new Error(`A shell block this test does not know how to check: ${command}`);
    },
  );
});

describe(`${MOCK_SERVER_PAGE}, followed from top to bottom`, () => {
  let server: RunningServer;
  let dir: string;
  beforeAll(async () => {
    server = await startServer();
    dir = mkdtempSync(join(tmpdir(), 'mock-server-page-'));
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('every sh block runs against the server and does what the page says', async () => {
    const blocks = shellBlocks(MOCK_SERVER_PAGE);
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    // The page's B defaults to port 4010; the test's server listens on a free port.
    const script = [
      'set -euo pipefail',
      ...blocks,
      'echo "ids: $USER $TXN $CLIENT $SESSION $ASHA"',
      'echo "the key: $K"',
    ].join('\n');
    const { stdout } = await run('bash', ['-c', script], {
      cwd: dir,
      env: { ...process.env, B: server.url },
      maxBuffer: 32 * 1024 * 1024,
    });
    expect(stdout).toContain(`the key: ${server.key}`);
    expect(stdout).toMatch(/ids: usr_\S+ txn_\S+ dlk_\S+ fce_\S+ usr_\S+/);
    // The consent page redirected with the outcome, and the transaction was paid out.
    expect(stdout).toMatch(/^303 https:\/\/partner\.example\/kyc\?status=VERIFIED&clientId=dlk_/m);
    expect(stdout).toContain('"completed"\n');
    // No answer in the session was an error the reader would not expect.
    expect(stdout).not.toMatch(/"code":"(?!TRANSITION_REFUSED)[A-Z_]+"/);
  }, 120_000);
});
