/**
 * Runs every fenced `ts` block under an `@example` in the mock's TSDoc, so the examples cannot rot.
 * Imports are replaced by the real modules; the code is transpiled with TypeScript and run as an async body.
 */
import { fileURLToPath } from 'node:url';
import * as msw from 'msw/node';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as mockEntry from '../../mock/index.js';
import { collectExamples } from '../docs/tsdoc-examples.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const modules: Record<string, Record<string, unknown>> = { 'inr-payouts/mock': mockEntry, 'msw/node': msw };
const IMPORT = /^import\s+\{([^}]*)\}\s+from\s+'([^']+)';?\s*$/gm;

async function run(code: string): Promise<void> {
  const names: string[] = [];
  const values: unknown[] = [];
  for (const [, list = '', from = ''] of code.matchAll(IMPORT)) {
    const source = modules[from];
    if (!source) throw new Error(`An example imports ${from}, which the runner does not provide`);
    for (const name of list
      .split(',')
      .map((n) => n.replace(/^type\s+/, '').trim())
      .filter(Boolean)) {
      names.push(name);
      values.push(source[name]);
    }
  }
  const body = ts.transpileModule(code.replace(IMPORT, ''), {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
  }).outputText;
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
    ...args: string[]
  ) => (...values: unknown[]) => Promise<void>;
  await new AsyncFunction(...names, body)(...values);
}

describe('TSDoc examples of inr-payouts/mock', () => {
  const examples = collectExamples(root, ['mock']);
  it('has runnable examples', () => {
    expect(examples.length).toBeGreaterThanOrEqual(4);
  });
  for (const example of examples) {
    it(`runs ${example.where}`, async () => {
      await run(example.code);
    });
  }
});
