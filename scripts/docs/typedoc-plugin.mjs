// @ts-check
/**
 * Shapes the typedoc site for its readers (typedoc has no option for these):
 * - each guide is named by its `# title` rather than its file name, and the guides are grouped and ordered as
 *   a partner meets them (scripts/docs/reading-order.json), not alphabetically;
 * - the landing page's own `# title` is dropped, since typedoc already heads the index with the project name.
 */
import { readFileSync } from 'node:fs';
import { Converter, RendererEvent } from 'typedoc';

const order = JSON.parse(readFileSync(new URL('./reading-order.json', import.meta.url), 'utf8'));
/** @type {Map<string, { group: string; rank: number }>} */
const placeOf = new Map();
for (const group of order.groups) {
  for (const guide of group.guides) placeOf.set(guide, { group: group.name, rank: placeOf.size });
}
const LAST = { group: 'Reference', rank: Number.MAX_SAFE_INTEGER };

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    const project = context.project;
    const readme = project.readme?.[0];
    if (readme?.kind === 'text') readme.text = readme.text.replace(/^# [^\n]*\n+/, '');

    const documents = project.documents ?? [];
    /** @type {Map<unknown, { group: string; rank: number }>} */
    const places = new Map();
    for (const document of documents) {
      // typedoc names a project document after its file, without the extension.
      const place = placeOf.get(`${document.name}.md`) ?? LAST;
      places.set(document, place);
      document.frontmatter.group = place.group;
    }
    const rank = (/** @type {unknown} */ r) => places.get(r)?.rank ?? -1;
    documents.sort((a, b) => rank(a) - rank(b));
    project.childrenIncludingDocuments?.sort((a, b) => rank(a) - rank(b));
  });

  // Renamed once the router has given each page its URL, so the URLs stay the file names (getting-started.html).
  app.renderer.on(RendererEvent.BEGIN, (event) => {
    for (const document of event.project.documents ?? []) {
      const first = document.content[0];
      const title = first?.kind === 'text' ? /^# ([^\n]+)/.exec(first.text)?.[1] : undefined;
      if (title) document.name = title;
    }
  });
}
