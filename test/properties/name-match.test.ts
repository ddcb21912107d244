/**
 * Properties of the name matcher of spec 4.7 and 4.8 (`mock/machines/name-match.ts`): symmetric, blind to word
 * order, case, punctuation and titles, always 0 to 100, identical names 100.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nameMatchScore, namesMatch, normalizeName } from '../../mock/machines/name-match.js';

const RUNS = 1_000;
const word = fc.stringMatching(/^[A-Za-z]{1,12}$/);
/** A name of 1 to 4 words, none of them a title (so normalising keeps every word). */
const name = fc
  .array(word, { minLength: 1, maxLength: 4 })
  .filter((words) => words.every((w) => normalizeName(w) !== ''))
  .map((words) => words.join(' '));
const title = fc.constantFrom('Mr.', 'Mrs', 'Ms.', 'Dr.', 'Shri', 'Smt.', 'Kumari', 'Prof.', 'SRI');
/** Any text at all, including punctuation, digits, accents and empty strings. */
const anything = fc.string({ maxLength: 40 });

describe('4.7, 4.8: name match, for any names', () => {
  it('4.7: the score is symmetric', () => {
    fc.assert(
      fc.property(fc.oneof(name, anything), fc.oneof(name, anything), (a, b) => {
        expect(nameMatchScore(a, b)).toBe(nameMatchScore(b, a));
      }),
      { numRuns: RUNS },
    );
  });

  it('4.7: the score is an integer from 0 to 100', () => {
    fc.assert(
      fc.property(fc.oneof(name, anything), fc.oneof(name, anything), (a, b) => {
        const score = nameMatchScore(a, b);
        expect(Number.isInteger(score)).toBe(true);
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(100);
      }),
      { numRuns: RUNS },
    );
  });

  it('4.7: identical names score 100 and pass', () => {
    fc.assert(
      fc.property(name, (a) => {
        expect(nameMatchScore(a, a)).toBe(100);
        expect(namesMatch(nameMatchScore(a, a))).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('4.7: word order does not matter ("RAO ASHA" is "Asha Rao")', () => {
    fc.assert(
      fc.property(
        fc
          .array(word, { minLength: 1, maxLength: 4 })
          .chain((words) =>
            fc.tuple(fc.constant(words), fc.shuffledSubarray(words, { minLength: words.length })),
          ),
        fc.oneof(name, anything),
        ([words, shuffled], other) => {
          expect(nameMatchScore(words.join(' '), shuffled.join(' '))).toBe(
            normalizeName(words.join(' ')) === '' ? 0 : 100,
          );
          expect(nameMatchScore(words.join(' '), other)).toBe(nameMatchScore(shuffled.join(' '), other));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('4.7: titles, case and punctuation are dropped before comparing', () => {
    fc.assert(
      fc.property(name, title, fc.oneof(name, anything), (a, t, other) => {
        const dressed = `${t} ${a.toUpperCase().split(' ').join(', ')}.`;
        expect(nameMatchScore(dressed, a)).toBe(100);
        expect(nameMatchScore(dressed, other)).toBe(nameMatchScore(a, other));
      }),
      { numRuns: RUNS },
    );
  });

  it('4.7: a name compared with one that shares nothing after normalising scores 0 when either is empty', () => {
    fc.assert(
      fc.property(name, title, (a, t) => {
        expect(nameMatchScore(a, t)).toBe(0);
        expect(nameMatchScore('', a)).toBe(0);
      }),
      { numRuns: RUNS },
    );
  });
});
