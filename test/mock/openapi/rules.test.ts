/**
 * `mock/openapi/rules.ts` restates the refinements of the request schemas for the document. Every refinement
 * has its rule, and every rule agrees with the schema it describes at its boundaries.
 */

import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { REQUEST_RULES, type Rule } from '../../../mock/openapi/rules.js';
import { ENDPOINTS, type Endpoint } from '../../../src/endpoints/index.js';

interface Node {
  _zod: { def: Record<string, unknown> & { type: string; checks?: { _zod: { def: { check: string } } }[] } };
}

/** Every field path (`''` the root) whose schema carries a refinement, with the field's schema. */
function refined(schema: Node, path = '', out = new Map<string, Node>()): Map<string, Node> {
  const def = schema._zod.def;
  if ((def.checks ?? []).some((c) => c._zod.def.check === 'custom')) out.set(path, schema);
  if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default') {
    refined(def.innerType as Node, path, out);
  }
  if (def.type === 'pipe') refined(def.in as Node, path, out);
  if (def.type === 'object') {
    for (const [key, field] of Object.entries(def.shape as Record<string, Node>)) {
      refined(field, path ? `${path}.${key}` : key, out);
    }
  }
  return out;
}

const ok = (schema: Node, value: unknown) => z.safeParse(schema as unknown as z.ZodMiniType, value).success;

/** The boundary values a rule implies, each with whether the schema must accept it. */
function probes(rule: Rule): [unknown, boolean][] {
  const out: [unknown, boolean][] = [];
  const { minLength, maxLength, minimum, maximum, format, type } = rule;
  if (typeof minLength === 'number')
    out.push(['x'.repeat(minLength), true], ['x'.repeat(minLength - 1), false]);
  if (typeof maxLength === 'number')
    out.push(['x'.repeat(maxLength), true], ['x'.repeat(maxLength + 1), false]);
  if (typeof minimum === 'number') out.push([minimum, true], [minimum - 0.001, false]);
  if (typeof maximum === 'number') out.push([maximum, true], [maximum + 0.001, false]);
  if (type === 'integer' && typeof minimum === 'number') out.push([minimum + 0.5, false]);
  if (format === 'uri') out.push(['https://partner.test/done', true], ['not a url', false]);
  if (format === 'date') out.push(['1990-01-31', true], ['1990-02-30', false]);
  const low = rule['x-decimal-minimum'];
  const high = rule['x-decimal-maximum'];
  if (typeof low === 'string') out.push([low, true], [`${Number(low) - 0.01}`, false]);
  if (typeof high === 'string') out.push([high, true], [`${high}.01`, false]);
  return out;
}

const rows: [string, Endpoint][] = Object.entries(ENDPOINTS);
const cases = rows.flatMap(([id, row]) => {
  const parts: ['body' | 'query', Node][] = [];
  if (row.body) parts.push(['body', row.body as unknown as Node]);
  if (row.query) parts.push(['query', row.query as unknown as Node]);
  return parts.map(([part, schema]) => ({ id, part, schema }));
});

describe('request rules', () => {
  it.each(cases)(
    '$id $part: every refinement has a rule that holds at its boundaries',
    ({ id, part, schema }) => {
      const rules = REQUEST_RULES[id]?.[part] ?? {};
      for (const [path, field] of refined(schema)) {
        expect(rules, `${id} ${part} ${path || '(root)'} has a refinement and no rule`).toHaveProperty([
          path,
        ]);
        if (!path) continue; // the root rule (if/then) is checked below
        for (const [value, accepted] of probes(rules[path] ?? {})) {
          expect(ok(field, value), `${id} ${part}.${path} with ${JSON.stringify(value)}`).toBe(accepted);
        }
      }
    },
  );

  it("the declaration's root rule: occupationOther must say something when the occupation is other", () => {
    const schema = cases.find((c) => c.id === 'kyc.declaration.submit')?.schema;
    expect(schema).toBeDefined();
    const base = { occupation: 'other', incomeRange: 'below_5l', isPep: false, declarationAccepted: true };
    expect(ok(schema as Node, base)).toBe(false);
    expect(ok(schema as Node, { ...base, occupationOther: '  ' })).toBe(false);
    expect(ok(schema as Node, { ...base, occupationOther: 'Artist' })).toBe(true);
  });
});
