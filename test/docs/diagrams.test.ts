// The state diagrams in docs/diagrams/ are drawn from the transition tables the mock runs. Redrawing them must give
// the committed files byte for byte: a machine that changes without `npx tsx scripts/docs/diagrams.ts` fails here.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MACHINE_GRAPHS } from '../../mock/machines/graphs.js';
import { DIAGRAM_DIR, renderDiagram } from '../../scripts/docs/diagrams.js';
import { root } from './tsdoc-examples.js';

describe('state diagrams', () => {
  it.each(MACHINE_GRAPHS.map((graph) => [graph.id, graph] as const))(
    'docs/diagrams/%s.svg is the drawing of its transition table',
    async (id, graph) => {
      const committed = readFileSync(join(DIAGRAM_DIR, `${id}.svg`), 'utf8');
      expect(await renderDiagram(graph), 'regenerate with: npx tsx scripts/docs/diagrams.ts').toBe(committed);
    },
  );

  it('every diagram is drawn from a machine and shown in a guide', () => {
    const files = readdirSync(DIAGRAM_DIR).filter((f) => f.endsWith('.svg'));
    expect(files.sort()).toEqual(MACHINE_GRAPHS.map((g) => `${g.id}.svg`).sort());
    const guides = readdirSync(join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => readFileSync(join(root, 'docs', f), 'utf8'))
      .join('\n');
    for (const file of files) expect(guides).toContain(`](diagrams/${file})`);
  });

  it('every state of every table is drawn, and each drawn arrow is a row of the table', async () => {
    for (const graph of MACHINE_GRAPHS) {
      const svg = await renderDiagram(graph);
      for (const state of graph.states) expect(svg).toContain(`>${state}</text>`);
      const arrows = svg.match(/class="edge"/g)?.length ?? 0;
      const pairs = new Set(graph.transitions.flatMap((row) => row.from.map((from) => `${from}>${row.to}`)));
      expect(arrows).toBe(pairs.size + graph.start.length);
    }
  });
});
