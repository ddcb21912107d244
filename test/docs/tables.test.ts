// The guides' tables of helpers, fault kinds and errors are checked against the code, so a renamed helper or a
// new error class cannot leave a guide naming something that is not there.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as client from 'inr-payouts';
import { createMockService } from 'inr-payouts/mock';
import { describe, expect, it } from 'vitest';
import { FAULT_KINDS } from '../../mock/policies/faults.js';
import { root } from './tsdoc-examples.js';

const read = (file: string) => readFileSync(join(root, file), 'utf8');
const guides = readdirSync(join(root, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => ({ file: `docs/${f}`, text: read(`docs/${f}`) }));

/** The mock's helpers as `group/action` (and `action` at the top level), as `/__mock` serves them. */
function helperNames(): Set<string> {
  const { helpers } = createMockService();
  const names = new Set<string>();
  for (const [group, value] of Object.entries(helpers)) {
    if (typeof value === 'function') names.add(group);
    else if (value && typeof value === 'object') {
      for (const [action, fn] of Object.entries(value))
        if (typeof fn === 'function') names.add(`${group}/${action}`);
    }
  }
  return names;
}

/** The rows of the markdown table that follows `heading` text, as arrays of cells. */
function tableAfter(text: string, marker: string): string[][] {
  const start = text.indexOf(marker);
  expect(start, marker).toBeGreaterThanOrEqual(0);
  const lines = text.slice(start).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(first)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
  }
  return rows.slice(2); // header and separator
}

describe('tables in the guides agree with the code', () => {
  const helpers = helperNames();

  it('every mock.helpers.<group>.<action> a guide names exists', () => {
    const named = guides.flatMap(({ file, text }) =>
      [...text.matchAll(/(?:mock|service)\.helpers\.(\w+)\.(\w+)/g)].map((m) => ({
        file,
        name: `${m[1]}/${m[2]}`,
      })),
    );
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter(({ name }) => !helpers.has(name))).toEqual([]);
  });

  it('testing-with-the-mock.md lists exactly the fault kinds the mock accepts', () => {
    const [kindRow] = tableAfter(read('docs/testing-with-the-mock.md'), 'times? })` takes:').filter(
      ([field]) => field === '`kind`',
    );
    const kinds = [...(kindRow?.[1] ?? '').matchAll(/`([a-z-]+)` \(/g)].map((m) => m[1]);
    expect(kinds).toEqual([...FAULT_KINDS]);
  });

  it('every error class an error table names is exported by inr-payouts', () => {
    const exported = new Set(Object.keys(client));
    const named = guides.flatMap(({ file, text }) =>
      text
        .split('\n')
        .filter((line) => line.startsWith('|'))
        // The peers' guide maps stripe-node and openai-node classes to ours: only its last column is ours.
        .map((line) =>
          file.endsWith('coming-from-stripe-or-openai.md') ? (line.split('|').at(-2) ?? '') : line,
        )
        .flatMap((line) => [...line.matchAll(/`([A-Z]\w*Error)`/g)].map((m) => ({ file, name: m[1] ?? '' }))),
    );
    expect(named.length).toBeGreaterThan(8);
    expect(named.filter(({ name }) => !exported.has(name))).toEqual([]);
  });

  it('the error table of errors-and-retries.md maps each status to the class the client throws for it', () => {
    const rows = tableAfter(read('docs/errors-and-retries.md'), '| Status');
    expect(rows.length).toBeGreaterThan(5);
    for (const [status = '', cell = ''] of rows) {
      const name = /`(\w+)`/.exec(cell)?.[1] ?? '';
      const ErrorClass = Reflect.get(client, name);
      expect(typeof ErrorClass, name).toBe('function');
      const code = status === '5xx' ? 500 : Number(status);
      const made = client.APIError.from({
        status: code,
        body: {},
        headers: new Headers(),
        endpoint: 'GET /v2/x',
      });
      expect(made, `status ${status}`).toBeInstanceOf(ErrorClass);
    }
  });
});
