/**
 * `openapi.json` and `openapi.mock.json` as the package ships them: the API's document with the package
 * version and the decisions of `docs/assumptions.md`, and the test helpers' document. `scripts/openapi.ts`
 * writes them; a test compares the committed files with these.
 */
import { readFileSync } from 'node:fs';
import { openApiDocument, parseAssumptions } from './document.js';
import { mockOpenApiDocument } from './mock-document.js';

const root = new URL('../../', import.meta.url);

/** The document's text, pretty-printed, ending in a newline. */
export function generateOpenApi(): string {
  const decisions = parseAssumptions(readFileSync(new URL('docs/assumptions.md', root), 'utf8'));
  return `${JSON.stringify(openApiDocument(decisions, packageVersion()), null, 2)}\n`;
}

/** The helpers' document's text, pretty-printed, ending in a newline. */
export function generateMockOpenApi(): string {
  return `${JSON.stringify(mockOpenApiDocument(packageVersion()), null, 2)}\n`;
}

function packageVersion(): string {
  const { version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { version: string };
  return version;
}
