// How a shipped fragment becomes a module that compiles and runs: the repository's guide and TSDoc tests
// (test/docs/) and this consumer's check.mjs, which reads the same fragments from the installed tarball, share it.
import { readFileSync } from 'node:fs';

/** What the fragments take from the reader's own code (`userId`, `rawBody`, ...), with its declaration. */
const AMBIENT = JSON.parse(readFileSync(new URL('./ambient.json', import.meta.url), 'utf8'));

/** The declarations of the reader's names a fragment uses without declaring or importing them. */
export function ambientFor(code) {
  return Object.entries(AMBIENT)
    .filter(
      ([name]) =>
        !new RegExp(`\\b(?:const|let|function|import)\\s*\\{?[^=;]*\\b${name}\\b[^=;]*=?`).test(code),
    )
    .map(([, line]) => line)
    .join('\n');
}

const IMPORT = /^import\s[\s\S]*?from\s+'[^']+';?[ \t]*$/gm;
const uses = (code, name) => new RegExp(`(?<![.\\w])${name}\\b`).test(code);
const declares = (code, name) =>
  new RegExp(`\\b(?:const|let|var|function|class)\\s+${name}\\b|import[^;]*\\b${name}\\b[^;]*from`).test(
    code,
  );

/**
 * The module a fragment becomes. Per the house rule a fragment may use `client` (a PayoutClient) and `mock` (a
 * MockService) without declaring them: then they are declared here, over an msw server that is closed when the
 * fragment ends, so none leaves a server listening.
 */
export function toModule(code) {
  const needsClient = uses(code, 'client') && !declares(code, 'client');
  const needsMock = needsClient || (uses(code, 'mock') && !declares(code, 'mock'));
  if (!needsMock) return `${code}\nexport {};\n`;
  return [
    "import { PayoutClient as __PayoutClient } from 'inr-payouts';",
    "import { createMockService as __createMockService } from 'inr-payouts/mock';",
    "import { mswHandlers as __mswHandlers, onUnhandled as __onUnhandled } from 'inr-payouts/mock/msw';",
    "import { setupServer as __setupServer } from 'msw/node';",
    ...(code.match(IMPORT) ?? []),
    'const mock = __createMockService();',
    'const __server = __setupServer(...__mswHandlers(mock));',
    "__server.listen(__onUnhandled('error'));",
    needsClient
      ? 'const client = new __PayoutClient({ apiKey: mock.sandboxKey, baseUrl: mock.baseUrl });'
      : '',
    'try {',
    code.replace(IMPORT, ''),
    '} finally {',
    '  __server.close();',
    '}',
    'export {};',
    '',
  ].join('\n');
}
