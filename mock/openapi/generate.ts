/**
 * `openapi.json` as the package ships it: the document with the package version and the decisions of
 * `docs/assumptions.md`. `scripts/openapi.ts` writes it; a test compares the committed file with this.
 */
import { readFileSync } from 'node:fs';
import { openApiDocument, parseAssumptions } from './document.js';

const root = new URL('../../', import.meta.url);

/**
 * The document's text, pretty-printed, ending in a newline.
 * @example
 * writeFileSync('openapi.json', generateOpenApi());
 */
export function generateOpenApi(): string {
  const { version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { version: string };
  const decisions = parseAssumptions(readFileSync(new URL('docs/assumptions.md', root), 'utf8'));
  return `${JSON.stringify(openApiDocument(decisions, version), null, 2)}\n`;
}
