// The ratios the quality bars name (README, Benchmarks), measured in the same run as the vitest bench table. The table's
// contenders run one after another, so on a shared machine a burst of load lands on one of them; the ratios
// are measured interleaved instead (round-robin batches, rotating order, median of the batch means), so the
// load falls on every contender alike.

type Body = () => unknown;

/** Median microseconds per call of each contender, measured interleaved. Async bodies are awaited. */
export async function measureInterleaved(
  contenders: Record<string, Body>,
  { rounds = 40, batch = 50, async = true }: { rounds?: number; batch?: number; async?: boolean } = {},
): Promise<Record<string, number>> {
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
  return Object.fromEntries(names.map((n) => [n, median(samples[n] ?? [])]));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** One ratio to report. 'cost': subject time / baseline time, must be <= bar; 'speed': baseline / subject, >= bar. */
export interface Ratio {
  label: string;
  subject: string;
  baseline: string;
  kind: 'cost' | 'speed';
  bar: number;
}

/** Prints each ratio with its bar and the per-call times it comes from. */
export function printRatios(title: string, micros: Record<string, number>, ratios: readonly Ratio[]): void {
  const lines = ratios.map((r) => {
    const subject = micros[r.subject] ?? Number.NaN;
    const baseline = micros[r.baseline] ?? Number.NaN;
    const value = r.kind === 'cost' ? subject / baseline : baseline / subject;
    const met = r.kind === 'cost' ? value <= r.bar : value >= r.bar;
    return (
      `  ${r.label}: ${value.toFixed(2)}x (bar ${r.kind === 'cost' ? '<=' : '>='} ${r.bar}x) ${met ? 'MET' : 'NOT MET'}` +
      `  [${subject.toFixed(1)} us vs ${baseline.toFixed(1)} us per call]`
    );
  });
  console.log(`\n${title} (interleaved, median of batch means)\n${lines.join('\n')}\n`);
}
