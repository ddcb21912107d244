// The ratios the performance targets name (docs/performance.md), measured in the same run as the vitest bench table.
// The table's contenders run one after another, so on a shared machine a burst of load lands on one of them; the
// ratios are measured interleaved instead (round-robin batches, rotating order), and each ratio is the median of
// its per-round ratios: within a round the two contenders ran seconds apart, so a change of load between rounds
// cancels out of the ratio instead of moving it.
import { appendFileSync } from 'node:fs';
import { inject } from 'vitest';
import { barText, type Target, type TargetResult } from './targets.js';

type Body = () => unknown;

/** Microseconds per call of each contender: the batch mean of every round, and their median. */
export interface Measured {
  micros: Record<string, number>;
  rounds: Record<string, number[]>;
}

/** Measures the contenders interleaved: `rounds` rounds of one `batch` each. Async bodies are awaited. */
export async function measureInterleaved(
  contenders: Record<string, Body>,
  { rounds = 40, batch = 50, async = true }: { rounds?: number; batch?: number; async?: boolean } = {},
): Promise<Measured> {
  const names = Object.keys(contenders);
  const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(round + i) % names.length] ?? '';
      const body = contenders[name];
      if (!body) continue;
      const start = performance.now();
      if (async) for (let k = 0; k < batch; k++) await body();
      else for (let k = 0; k < batch; k++) body();
      samples[name]?.push(((performance.now() - start) * 1000) / batch);
    }
  }
  return { micros: Object.fromEntries(names.map((n) => [n, median(samples[n] ?? [])])), rounds: samples };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/**
 * One ratio to report: `target` (one of {@link TARGETS}) or, for a figure shown for reference, a `label` with its
 * own `kind` and `bar`. 'cost': subject time / baseline time, at most the bar; 'speed': baseline / subject, at least.
 */
export type Ratio = { subject: string; baseline: string } & (
  | { target: Target }
  | { label: string; kind: 'cost' | 'speed'; bar: number }
);

/** PASS or FAIL against the bar, for one figure. */
export function verdict(kind: Target['kind'], value: number, bar: number): 'PASS' | 'FAIL' {
  return (kind === 'cost' ? value <= bar : value >= bar) ? 'PASS' : 'FAIL';
}

/** Prints each ratio with its bar, PASS or FAIL, and the per-call times it comes from; records the targets' ones. */
export function printRatios(title: string, measured: Measured, ratios: readonly Ratio[]): void {
  const lines = ratios.map((r) => {
    const { label, kind, bar } = 'target' in r ? r.target : r;
    const subject = measured.rounds[r.subject] ?? [];
    const baseline = measured.rounds[r.baseline] ?? [];
    const value = median(
      subject.map((s, i) => {
        const b = baseline[i] ?? Number.NaN;
        return kind === 'cost' ? s / b : b / s;
      }),
    );
    const result = verdict(kind, value, bar);
    if ('target' in r) recordTarget({ id: r.target.id, value, result });
    return (
      `  ${label}: ${value.toFixed(2)}x (target ${barText(kind, bar)}) ${result}` +
      `  [${(measured.micros[r.subject] ?? Number.NaN).toFixed(1)} us vs ` +
      `${(measured.micros[r.baseline] ?? Number.NaN).toFixed(1)} us per call, medians]`
    );
  });
  console.log(`\n${title} (interleaved, median of per-round ratios)\n${lines.join('\n')}\n`);
}

/** Prints a rate against its target (at least `bar` per second) and records it. */
export function printRate(target: Target, rate: number, detail: string): void {
  const result = verdict(target.kind, rate, target.bar);
  recordTarget({ id: target.id, value: rate, result });
  console.log(
    `\n${target.label}: ${rate.toFixed(0)} per second (target ${barText(target.kind, target.bar)}) ${result}  [${detail}]\n`,
  );
}

/** Hands a target's figure to the run's summary (test/bench/summary.ts), printed after every bench file. */
export function recordTarget(result: TargetResult): void {
  const file = inject('benchResults');
  if (file) appendFileSync(file, `${JSON.stringify(result)}\n`);
}
