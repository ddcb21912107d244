// Global setup of `npm run bench`: gives the bench files a file to record each target's figure in (ratio.ts),
// and once every file has run prints all the targets of test/bench/targets.ts with their figures, PASS or FAIL,
// so one run's verdicts sit in one place rather than between the bench tables.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { barText, TARGETS, type TargetResult } from './targets.js';

declare module 'vitest' {
  export interface ProvidedContext {
    benchResults: string;
  }
}

function figure(kind: string, value: number): string {
  return kind === 'rate' ? `${value.toFixed(0)}/s` : `${value.toFixed(2)}x`;
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'inr-payouts-bench-'));
  const file = join(dir, 'targets.jsonl');
  project.provide('benchResults', file);
  return () => {
    let results: TargetResult[] = [];
    try {
      results = readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as TargetResult);
    } catch {
      // No bench file recorded a target.
    }
    rmSync(dir, { recursive: true, force: true });
    const width = Math.max(...Object.values(TARGETS).map((t) => t.label.length));
    const lines = Object.values(TARGETS).map((t) => {
      const got = results.find((r) => r.id === t.id);
      return got
        ? `  ${got.result}  ${t.label.padEnd(width)} ${figure(t.kind, got.value).padStart(8)}  target ${barText(t.kind, t.bar)}`
        : `  ----  ${t.label.padEnd(width)} not measured in this run (${t.file})`;
    });
    console.log(
      `\nperformance targets (npm run bench; the standalone server's come from npm run bench:server)\n${lines.join('\n')}\n`,
    );
  };
}
