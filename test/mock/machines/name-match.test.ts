import { describe, expect, it } from 'vitest';
import { levenshtein, nameMatchScore, normalizeName } from '../../../mock/machines/name-match.js';

describe('4.7, 4.8: name match', () => {
  it('4.8: normalises case and punctuation, drops titles and tolerates word order', () => {
    expect(normalizeName('Smt. RAO,  Asha')).toBe('asha rao');
    expect(normalizeName('Dr Shri Kumari Mr Mrs Ms Asha')).toBe('asha');
    expect(nameMatchScore('Mr. Asha Rao', 'RAO ASHA')).toBe(100);
  });

  it('4.7: score is 100 × (1 − Levenshtein / longer length), rounded; 70 passes', () => {
    expect(levenshtein('kitten', 'sitting')).toBe(3);
    expect(nameMatchScore('Asha Rao', 'Asha Raj')).toBe(88);
    expect(nameMatchScore('Asha Rao', 'Vikram Singh')).toBeLessThan(70);
    expect(nameMatchScore('', 'Mr.')).toBe(0);
  });
});
