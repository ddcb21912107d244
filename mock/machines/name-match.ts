/**
 * The name match of spec 4.7 and 4.8: names are normalised (case, punctuation, titles dropped, words sorted
 * so order does not matter), then scored by Levenshtein distance; 70 or more passes.
 */
import { NAME_MATCH_THRESHOLD } from '../../src/schemas/common.js';

/** Honorifics dropped before comparing (Indian and English usage). */
const TITLES = new Set([
  'mr',
  'mrs',
  'ms',
  'miss',
  'mx',
  'dr',
  'prof',
  'shri',
  'sri',
  'shrimati',
  'smt',
  'kumari',
  'kum',
  'km',
  'master',
  'sir',
  'late',
]);

/** `'Dr. Rao, Asha'` → `'asha rao'`: lower case, punctuation to spaces, titles dropped, words sorted. */
export function normalizeName(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .split(' ')
    .filter((word) => word !== '' && !TITLES.has(word))
    .sort()
    .join(' ');
}

/** Edit distance (insertions, deletions, substitutions), two rows at a time. */
export function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * Similarity 0 to 100 of two names: `round(100 × (1 − distance / longer length))` of the normalised forms.
 * Two names with nothing left after normalising score 0.
 */
export function nameMatchScore(a: string, b: string): number {
  const x = normalizeName(a);
  const y = normalizeName(b);
  const longest = Math.max(x.length, y.length);
  if (longest === 0) return 0;
  return Math.round(100 * (1 - levenshtein(x, y) / longest));
}

/** Whether a score passes (spec 8: at least 70). */
export function namesMatch(score: number): boolean {
  return score >= NAME_MATCH_THRESHOLD;
}
