/**
 * A state machine drawn as inline SVG for the inspector, from the same graph the docs' diagrams come from
 * (`MACHINE_GRAPHS`): the current state filled, the states it can go to next outlined dashed, their arrows
 * drawn bold. The docs lay their diagrams out with elkjs at build time; a page drawn on every request in the
 * shipped package gets a small layered layout written here instead (one row per distance from the start),
 * which is enough for machines of a dozen states and needs no dependency.
 */

import { escapeHtml } from '../../http/html.js';
import type { MachineGraph } from '../../machines/graphs.js';

const CHAR_WIDTH = 7.2;
const NODE_HEIGHT = 28;
const ROW_GAP = 34;
const COLUMN_GAP = 16;
const PAD = 18;
const TOP = 26;
/** How far below its row an arc between two states of the row reaches. */
const ARC_DEPTH = 22;

/**
 * Where `state` can go next: each other state one row of the graph's table leads to, with the events (and
 * conditions) that lead there, in the table's order.
 */
export function nextStates(graph: MachineGraph, state: string): { to: string; events: string[] }[] {
  const next = new Map<string, string[]>();
  for (const row of graph.transitions) {
    if (!row.from.includes(state) || row.to === state) continue;
    const event = `${graph.eventLabels[row.event] ?? row.event}${row.when ? ` (${row.when})` : ''}`;
    const events = next.get(row.to) ?? [];
    if (!events.includes(event)) events.push(event);
    next.set(row.to, events);
  }
  return [...next].map(([to, events]) => ({ to, events }));
}

/** Each state's row: its distance from a start state, the unreachable ones in a last row. */
function rowsOf(graph: MachineGraph): string[][] {
  const depth = new Map<string, number>(graph.start.map((s) => [s, 0]));
  const queue = [...graph.start];
  for (let state = queue.shift(); state !== undefined; state = queue.shift()) {
    for (const row of graph.transitions) {
      if (!row.from.includes(state) || depth.has(row.to)) continue;
      depth.set(row.to, (depth.get(state) ?? 0) + 1);
      queue.push(row.to);
    }
  }
  const last = Math.max(0, ...depth.values()) + 1;
  const rows: string[][] = [];
  for (const state of graph.states) {
    const at = depth.get(state) ?? last;
    rows[at] = [...(rows[at] ?? []), state];
  }
  return rows.filter((row) => row.length > 0);
}

interface Box {
  x: number;
  y: number;
  w: number;
  row: number;
}

const round = (n: number) => Math.round(n * 10) / 10;

function edgePath(from: Box, to: Box, width: number): string {
  const fromX = from.x + from.w / 2;
  const toX = to.x + to.w / 2;
  if (to.row > from.row) {
    return `M${round(fromX)} ${from.y + NODE_HEIGHT} L${round(toX)} ${to.y - 2}`;
  }
  if (to.row === from.row) {
    // In the same row: an arc below it, deeper right to left so the two directions of a pair stay apart.
    const y = from.y + NODE_HEIGHT;
    const depth = to.x > from.x ? ARC_DEPTH * 0.6 : ARC_DEPTH;
    return `M${round(fromX + 6)} ${y} Q${round((fromX + toX) / 2)} ${y + depth * 2} ${round(toX - 6)} ${y + 2}`;
  }
  // Back up the graph: around the right-hand side.
  const side = width - PAD / 2;
  const fromY = from.y + NODE_HEIGHT / 2;
  const toY = to.y + NODE_HEIGHT / 2;
  return `M${round(from.x + from.w)} ${fromY} C${side} ${fromY} ${side} ${toY} ${round(to.x + to.w + 2)} ${toY}`;
}

/**
 * `graph` as an SVG document fragment, with `current` marked (`class="state current"`) and the states it
 * can go to next marked (`class="state next"`). Every state is a `<g>` with `data-state`, so a test or a
 * script can find it.
 */
export function drawMachine(graph: MachineGraph, current: string): string {
  const rows = rowsOf(graph);
  const next = new Set(nextStates(graph, current).map((n) => n.to));
  const widthOf = (state: string) => Math.max(64, state.length * CHAR_WIDTH + 20);
  const rowWidth = (row: string[]) =>
    row.reduce((sum, s) => sum + widthOf(s), 0) + COLUMN_GAP * (row.length - 1);
  const width = round(Math.max(...rows.map(rowWidth)) + PAD * 3);
  // Room under the last row for its arcs.
  const height = TOP + rows.length * (NODE_HEIGHT + ROW_GAP) - ROW_GAP + PAD + ARC_DEPTH;
  const boxes = new Map<string, Box>();
  rows.forEach((row, index) => {
    let x = (width - PAD - rowWidth(row)) / 2;
    for (const state of row) {
      boxes.set(state, { x, y: TOP + index * (NODE_HEIGHT + ROW_GAP), w: widthOf(state), row: index });
      x += widthOf(state) + COLUMN_GAP;
    }
  });
  const marker = `arrow-${graph.id}`;
  const edges: string[] = [];
  const drawn = new Set<string>();
  for (const row of graph.transitions) {
    for (const from of row.from) {
      const key = `${from}\u0000${row.to}`;
      const a = boxes.get(from);
      const b = boxes.get(row.to);
      if (from === row.to || drawn.has(key) || !a || !b) continue;
      drawn.add(key);
      const leads = from === current && next.has(row.to);
      edges.push(
        `<path class="edge${leads ? ' next-edge' : ''}" d="${edgePath(a, b, width)}" marker-end="url(#${marker})">` +
          `<title>${escapeHtml(`${from} → ${row.to}`)}</title></path>`,
      );
    }
  }
  const starts = graph.start.flatMap((state) => {
    const box = boxes.get(state);
    if (!box) return [];
    const x = round(box.x + box.w / 2);
    return [
      `<circle class="start" cx="${x}" cy="6" r="4"/><path class="edge" d="M${x} 10 L${x} ${box.y - 2}" marker-end="url(#${marker})"/>`,
    ];
  });
  const finals = new Set(graph.final);
  const nodes = [...boxes].map(([state, box]) => {
    const kind = state === current ? ' current' : next.has(state) ? ' next' : '';
    const final = finals.has(state) ? ' final' : '';
    return (
      `<g class="state${kind}${final}" data-state="${escapeHtml(state)}">` +
      `<rect x="${round(box.x)}" y="${box.y}" width="${round(box.w)}" height="${NODE_HEIGHT}" rx="8"/>` +
      `<text x="${round(box.x + box.w / 2)}" y="${box.y + NODE_HEIGHT / 2 + 4}">${escapeHtml(state)}</text></g>`
    );
  });
  const title = `${graph.title}: now ${current}${next.size ? `, next ${[...next].join(' or ')}` : ', final'}`;
  return (
    `<svg class="machine" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(title)}" ` +
    `data-machine="${escapeHtml(graph.id)}" xmlns="http://www.w3.org/2000/svg">` +
    `<defs><marker id="${marker}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" markerUnits="userSpaceOnUse" orient="auto-start-reverse">` +
    `<path d="M0 0 L10 5 L0 10 z" class="arrowhead"/></marker></defs>` +
    `${starts.join('')}${edges.join('')}${nodes.join('')}</svg>`
  );
}
