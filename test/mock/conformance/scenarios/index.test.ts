/**
 * The suite's catalogue as a report and `--only` read it: stable, unique IDs grouped by area, a tier each, and
 * spec references a reader can follow (sections that exist, error identifiers the mock knows).
 */
import { describe, expect, it } from 'vitest';
import { SCENARIOS } from '../../../../mock/conformance/scenarios/index.js';
import { TIERS } from '../../../../mock/conformance/types.js';
import { REFUSAL_RULES } from '../../../../mock/observe/refusals.js';

/** The spec's sections: 1 to 9, 2.1-2.11, 3.1-3.4, 4.1-4.12, 6.1-6.4, 7.1-7.6, and section 5's numbered rules. */
const SECTIONS = new Set([
  ...['1', '2', '3', '4', '5', '6', '7', '8', '9'],
  ...Array.from({ length: 8 }, (_, i) => `5.${i + 1}`),
  ...Array.from({ length: 11 }, (_, i) => `2.${i + 1}`),
  ...Array.from({ length: 4 }, (_, i) => `3.${i + 1}`),
  ...Array.from({ length: 12 }, (_, i) => `4.${i + 1}`),
  ...Array.from({ length: 4 }, (_, i) => `6.${i + 1}`),
  ...Array.from({ length: 6 }, (_, i) => `7.${i + 1}`),
]);

describe('the conformance suite', () => {
  it('gives every scenario a unique dotted ID, its area first, and areas one after another', () => {
    const ids = SCENARIOS.map((scenario) => scenario.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z-]+\.[a-z0-9-]+$/);
    const areas = ids.map((id) => id.split('.')[0]);
    const runs = areas.filter((area, i) => area !== areas[i - 1]);
    expect(new Set(runs).size).toBe(runs.length);
  });

  it('puts every scenario in a tier a run can include', () => {
    for (const { id, tier } of SCENARIOS) expect(TIERS, id).toContain(tier);
  });

  it('cites sections of the spec that exist, and error identifiers the mock answers', () => {
    for (const { id, spec, title } of SCENARIOS) {
      expect(title.length, id).toBeGreaterThan(0);
      const sections = spec.match(/\b\d+(?:\.\d+)?\b/g) ?? [];
      expect(sections.length, id).toBeGreaterThan(0);
      for (const section of sections) expect(SECTIONS, `${id}: ${section}`).toContain(section);
      for (const identifier of spec.match(/\b[A-Z]+(?:_[A-Z]+)+\b/g) ?? []) {
        expect(Object.keys(REFUSAL_RULES), `${id}: ${identifier}`).toContain(identifier);
      }
    }
  });
});
