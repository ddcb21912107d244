/**
 * Draws each state machine of the mock (mock/machines/graphs.ts) as an SVG in docs/diagrams/, from the transition
 * tables the machines run. Layout by elkjs (layered, pure JavaScript, no browser, no network); the SVG is written
 * here because elkjs only places boxes and arrows. Text is measured with a fixed advance per character in a
 * monospace font, so the output is the same on every machine and the committed files can be compared byte for
 * byte (test/docs/diagrams.test.ts).
 *
 * Run: `npx tsx scripts/docs/diagrams.ts` (part of `npm run docs`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ELK, { type ElkExtendedEdge, type ElkNode, type ElkPoint } from 'elkjs/lib/elk.bundled.js';
import { MACHINE_GRAPHS, type MachineGraph } from '../../mock/machines/graphs.js';

const FONT = "ui-monospace, 'SFMono-Regular', Menlo, Consolas, 'DejaVu Sans Mono', monospace";
const FONT_SIZE = 12;
/** Advance of one character at FONT_SIZE in a monospace font (0.6 em), with a margin for wider fallbacks. */
const CHAR_WIDTH = 7.4;
const LINE_HEIGHT = 15;
const STATE_HEIGHT = 32;
const PAD = 16;
const START = '__start';
const LABEL_CHARS = 26;

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const textWidth = (lines: readonly string[]) => Math.max(...lines.map((line) => line.length)) * CHAR_WIDTH;
const round = (n: number) => Math.round(n * 10) / 10;

/**
 * One arrow per pair of states; the rows between the same pair share it, one label line per condition
 * ("a step completes or POST /kyc/refresh (a step done)").
 */
function edgesOf(graph: MachineGraph): { from: string; to: string; lines: string[] }[] {
  const edges = new Map<string, { from: string; to: string; events: Map<string, string[]> }>();
  for (const row of graph.transitions) {
    for (const from of row.from) {
      const key = `${from}→${row.to}`;
      const edge = edges.get(key) ?? { from, to: row.to, events: new Map<string, string[]>() };
      const events = edge.events.get(row.when ?? '') ?? [];
      const event = graph.eventLabels[row.event] ?? row.event;
      if (!events.includes(event)) events.push(event);
      edge.events.set(row.when ?? '', events);
      edges.set(key, edge);
    }
  }
  return [...edges.values()].map(({ from, to, events }) => ({
    from,
    to,
    lines: [...events].flatMap(([when, names]) => wrap(`${names.join(' or ')}${when ? ` (${when})` : ''}`)),
  }));
}

/** Lines of at most LABEL_CHARS characters, broken between words, so a picture fits a guide's column. */
function wrap(text: string): string[] {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines[lines.length - 1];
    if (last !== undefined && last.length + 1 + word.length <= LABEL_CHARS)
      lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

async function layout(graph: MachineGraph): Promise<ElkNode> {
  const edges: ElkExtendedEdge[] = [
    ...graph.start.map((state, i) => ({ id: `start-${i}`, sources: [START], targets: [state] })),
    ...edgesOf(graph).map((edge, i) => ({
      id: `e${i}`,
      sources: [edge.from],
      targets: [edge.to],
      labels: [
        {
          id: `l${i}`,
          text: edge.lines.join('\n'),
          width: textWidth(edge.lines),
          height: edge.lines.length * LINE_HEIGHT,
        },
      ],
    })),
  ];
  return new ELK().layout({
    id: graph.id,
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'DOWN',
      'elk.edgeRouting': 'ORTHOGONAL',
      'elk.edgeLabels.inline': 'false',
      'elk.layered.edgeLabels.sideSelection': 'ALWAYS_DOWN',
      'elk.spacing.nodeNode': '40',
      'elk.layered.spacing.nodeNodeBetweenLayers': '40',
      'elk.spacing.edgeLabel': '4',
      'elk.spacing.edgeEdge': '14',
      'elk.layered.spacing.edgeNodeBetweenLayers': '14',
      'elk.layered.nodePlacement.strategy': 'NETWORK_SIMPLEX',
      // States keep the order they are met in (graphs.ts): an arrow against that order is the one drawn back.
      'elk.layered.cycleBreaking.strategy': 'MODEL_ORDER',
      'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
      'elk.randomSeed': '1',
    },
    children: [
      { id: START, width: 12, height: 12 },
      ...graph.states.map((state) => ({
        id: state,
        width: state.length * CHAR_WIDTH + 28,
        height: STATE_HEIGHT,
      })),
    ],
    edges,
  });
}

/** The SVG path of an edge's route, and the last segment's end and direction for the arrow head. */
function route(edge: ElkExtendedEdge): { d: string; end: ElkPoint; from: ElkPoint } | undefined {
  const section = edge.sections?.[0];
  if (!section) return undefined;
  const points = [section.startPoint, ...(section.bendPoints ?? []), section.endPoint];
  const d = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${round(p.x)} ${round(p.y)}`).join(' ');
  const [from, end] = points.slice(-2);
  return end && from ? { d, end, from } : undefined;
}

function arrowHead(from: ElkPoint, end: ElkPoint): string {
  const angle = Math.atan2(end.y - from.y, end.x - from.x);
  const side = (turn: number) => {
    const a = angle + Math.PI + turn;
    return `${round(end.x + 8 * Math.cos(a))} ${round(end.y + 8 * Math.sin(a))}`;
  };
  return `<path class="head" d="M${round(end.x)} ${round(end.y)} L${side(0.4)} L${side(-0.4)} Z"/>`;
}

/**
 * The machine as a standalone SVG document (its own white background, so it reads on dark pages too).
 * @example
 * const svg = await renderDiagram(MACHINE_GRAPHS[0]);
 */
export async function renderDiagram(graph: MachineGraph): Promise<string> {
  const laid = await layout(graph);
  const width = round((laid.width ?? 0) + 2 * PAD);
  const height = round((laid.height ?? 0) + 2 * PAD + LINE_HEIGHT + 8);
  const top = PAD + LINE_HEIGHT + 8;
  const out: string[] = [];
  for (const node of laid.children ?? []) {
    const x = round(node.x ?? 0);
    const y = round(node.y ?? 0);
    const w = round(node.width ?? 0);
    const h = round(node.height ?? 0);
    if (node.id === START) {
      out.push(`<circle class="start" cx="${round(x + w / 2)}" cy="${round(y + h / 2)}" r="${w / 2}"/>`);
      continue;
    }
    const final = graph.final.includes(node.id);
    out.push(
      `<g class="state${final ? ' final' : ''}"><title>${escapeXml(node.id)}${final ? ' (final)' : ''}</title>`,
      `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${final ? 4 : 16}"/>`,
      final
        ? `<rect class="inner" x="${x + 3}" y="${y + 3}" width="${w - 6}" height="${h - 6}" rx="2"/>`
        : '',
      `<text x="${round(x + w / 2)}" y="${round(y + h / 2 + 4)}" text-anchor="middle">${escapeXml(node.id)}</text></g>`,
    );
  }
  for (const edge of laid.edges ?? []) {
    const path = route(edge);
    if (!path) continue;
    out.push(`<path class="edge" d="${path.d}"/>`, arrowHead(path.from, path.end));
    for (const label of edge.labels ?? []) {
      const lines = (label.text ?? '').split('\n');
      const x = round(label.x ?? 0);
      const y = round(label.y ?? 0);
      out.push(
        `<text class="label" x="${x}" y="${y}">${lines
          .map((line, i) => `<tspan x="${x}" dy="${i === 0 ? 11 : LINE_HEIGHT}">${escapeXml(line)}</tspan>`)
          .join('')}</text>`,
      );
    }
  }
  const title = `${graph.title}: drawn from mock/machines (${graph.id})`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeXml(graph.title)} state diagram">`,
    `<title>${escapeXml(title)}</title>`,
    '<style>',
    `text{font-family:${FONT};font-size:${FONT_SIZE}px;fill:#1f2328}`,
    '.caption{font-weight:bold}',
    '.state rect{fill:#eef4ff;stroke:#3a5fb0;stroke-width:1.4}',
    '.state.final rect{fill:#f3f3f3;stroke:#555}',
    '.state .inner{fill:none}',
    '.edge{fill:none;stroke:#555;stroke-width:1.2}',
    '.head,.start{fill:#555}',
    '.label{fill:#6b3d00}',
    '</style>',
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text class="caption" x="${PAD}" y="${PAD + 11}">${escapeXml(graph.title)}</text>`,
    `<g transform="translate(${PAD} ${top})">`,
    ...out.filter(Boolean),
    '</g>',
    '</svg>',
    '',
  ].join('\n');
}

/** Where the diagrams live, one `<id>.svg` per machine. */
export const DIAGRAM_DIR = fileURLToPath(new URL('../../docs/diagrams/', import.meta.url));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  mkdirSync(DIAGRAM_DIR, { recursive: true });
  for (const graph of MACHINE_GRAPHS) {
    writeFileSync(`${DIAGRAM_DIR}${graph.id}.svg`, await renderDiagram(graph));
    console.log(`docs/diagrams/${graph.id}.svg`);
  }
}
