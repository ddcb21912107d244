import { describe, expect, it } from 'vitest';
import { MACHINE_GRAPHS, type MachineGraph } from '../../../../mock/machines/graphs.js';
import { drawMachine, nextStates } from '../../../../mock/server/inspector/machine.js';

/**
 * The inspector page's rendering, without a browser: what partners sent shows as text (never as markup or
 * script), "copy as curl" quotes for the shell, the filters and the state machine read the state, and the page
 * sits behind the same local-only guard and framing protections as the other pages.
 */

function graph(id: string): MachineGraph {
  const found = MACHINE_GRAPHS.find((g) => g.id === id);
  if (!found) throw new Error(`no graph ${id}`);
  return found;
}

describe('the state machine drawing', () => {
  it('marks the current state and the states it can go to next, from the machine’s table', () => {
    const standard = graph('transaction-standard');
    expect(nextStates(standard, 'created')).toEqual([
      { to: 'deposit_pending', events: ['deposit seen on chain'] },
      { to: 'cancelled', events: ['quote expires unpaid'] },
    ]);
    expect(nextStates(standard, 'completed')).toEqual([]);
    const svg = drawMachine(standard, 'created');
    expect(svg.match(/class="state current[^"]*" data-state="([^"]+)"/)?.[1]).toBe('created');
    expect([...svg.matchAll(/class="state next[^"]*" data-state="([^"]+)"/g)].map((m) => m[1])).toEqual([
      'deposit_pending',
      'cancelled',
    ]);
    expect(svg.match(/next-edge/g)).toHaveLength(2);
    // Every state of the machine is drawn, once.
    for (const state of standard.states) expect(svg.split(`data-state="${state}"`)).toHaveLength(2);
  });

  it('draws every machine of MACHINE_GRAPHS inside its view box', () => {
    for (const machine of MACHINE_GRAPHS) {
      const svg = drawMachine(machine, machine.start[0] ?? '');
      const [, width = 0, height = 0] = (/viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(svg) ?? []).map(Number);
      for (const rect of svg.matchAll(
        /<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"/g,
      )) {
        const [x, y, w, h] = rect.slice(1).map(Number) as [number, number, number, number];
        expect(x).toBeGreaterThanOrEqual(0);
        expect(x + w, machine.id).toBeLessThanOrEqual(width);
        expect(y + h, machine.id).toBeLessThanOrEqual(height);
      }
    }
  });
});
