/**
 * The helpers' contract (`mock/contract/helpers.ts`): every helper has one, in-process calls are checked
 * against it, and `docs/mock-server.md` lists exactly what it says.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HELPER_CONTRACT, type HelperSpec, servedOverHttp } from '../../../mock/contract/helpers.js';
import { createMockService, MockArgumentError } from '../../../mock/index.js';
import { describeHelpers, listHelpers } from '../../../mock/server/helpers-api.js';
import { helperTable } from '../../../mock/server/helpers-doc.js';

const docsUrl = new URL('../../../docs/mock-server.md', import.meta.url);

/** A markdown table as rows of trimmed cells, so the comparison ignores the formatter's alignment. */
function cells(table: string): string[][] {
  return table
    .trim()
    .split('\n')
    .filter((line) => !/^\|[\s|:-]+\|$/.test(line))
    .map((line) =>
      line
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
}

function thrown(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
}

describe('helper contract', () => {
  it('names every helper a service has, and nothing else', () => {
    const names = Object.entries(createMockService().helpers).flatMap(([group, value]) =>
      typeof value === 'function'
        ? [group]
        : Object.entries(value)
            .filter(([, fn]) => typeof fn === 'function')
            .map(([action]) => `${group}.${action}`),
    );
    expect(Object.keys(HELPER_CONTRACT).sort()).toEqual(names.sort());
  });

  it('says which helpers are served over HTTP, and the listing lists exactly those', () => {
    const listed = Object.entries(listHelpers(createMockService())).flatMap(([group, actions]) =>
      actions.map((action) => (group ? `${group}.${action}` : action)),
    );
    const entries: [string, HelperSpec][] = Object.entries(HELPER_CONTRACT);
    const inProcessOnly = entries.filter(([, spec]) => spec.http === false);
    expect(inProcessOnly.map(([name]) => name)).toEqual(['webhooks.useFetch']);
    // Each says what does the same over HTTP, for its path's 404.
    for (const [, spec] of inProcessOnly) expect(spec.overHttp).toMatch(/\/__mock\//);
    expect(listed.sort()).toEqual(
      entries
        .map(([name]) => name)
        .filter(servedOverHttp)
        .sort(),
    );
    expect(
      describeHelpers()
        .map((h) => h.name)
        .sort(),
    ).toEqual(listed);
  });

  it('refuses a missing argument in-process with the field, not a JavaScript internal', () => {
    const mock = createMockService();
    const missing = thrown(() => Reflect.apply(mock.helpers.kyc.aadhaarOtp, mock.helpers.kyc, []));
    expect(missing).toBeInstanceOf(MockArgumentError);
    expect(missing).toMatchObject({ field: '', message: 'helpers.kyc.aadhaarOtp: the argument is required' });
    const wrong = thrown(() => mock.helpers.otp.read({ userId: 'usr_1', channel: 'sms' as 'mobile' }));
    expect(wrong).toMatchObject({
      field: 'channel',
      message: 'helpers.otp.read: field channel must be one of "mobile", "email"',
    });
    const nested = thrown(() => mock.helpers.tranches.add([{ rate: '84', inrAmount: 'lots' }]));
    expect(nested).toMatchObject({ field: 'args.0.0.inrAmount' });
    expect(String((nested as Error).message)).toContain('must be a decimal string');
  });

  it('changes nothing when it refuses', () => {
    const mock = createMockService();
    const before = mock.helpers.snapshot();
    thrown(() => mock.helpers.faults.inject({ kind: 'meteor' as 'drop' }));
    expect(mock.helpers.faults.list()).toEqual([]);
    expect(mock.helpers.snapshot()).toEqual(before);
  });

  it('describes each HTTP helper with the JSON Schema of its arguments', () => {
    const described = describeHelpers();
    const advance = described.find((h) => h.name === 'clock.advance');
    expect(advance).toMatchObject({ path: '/__mock/clock/advance' });
    expect(advance?.arguments[0]).toMatchObject({ anyOf: [{ type: 'number' }, { type: 'string' }] });
    const read = described.find((h) => h.name === 'otp.read');
    expect(read?.arguments[0]).toMatchObject({
      type: 'object',
      required: ['userId', 'channel'],
      properties: { channel: { enum: ['mobile', 'email'] } },
    });
    // A function cannot cross HTTP.
    expect(described.map((h) => h.name)).not.toContain('webhooks.useFetch');
  });

  it("docs/mock-server.md's helper table is the contract's (UPDATE_DOCS=1 rewrites it)", () => {
    const docs = readFileSync(docsUrl, 'utf8');
    const block = /<!-- helpers:start -->\n([\s\S]*?)<!-- helpers:end -->/;
    const expected = `${helperTable()}\n`;
    if (process.env.UPDATE_DOCS === '1') {
      writeFileSync(docsUrl, docs.replace(block, `<!-- helpers:start -->\n${expected}<!-- helpers:end -->`));
      return;
    }
    expect(cells(block.exec(docs)?.[1] ?? '')).toEqual(cells(expected));
  });
});
