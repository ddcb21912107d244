// The Debian mirror this machine's apt already uses, for mmdebstrap (scripts/container/base-image.mjs): a
// partner behind a corporate mirror reaches Debian only through it. Read from /etc/apt/sources.list and
// /etc/apt/sources.list.d/ (one-line `*.list` and deb822 `*.sources`); the first `deb` source of a Debian release
// suite (`bookworm`, `stable`: no `-security`, `-updates`, `-backports`) with the `main` component is the mirror.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const APT = '/etc/apt';
/** Suites that are a release's own archive, not its security, updates or backports archive, nor a vendor's. */
const RELEASE_SUITE = /^[a-z]+$/;
const VENDOR_SUITES = new Set(['nodistro', 'stable-proposed']);

/** The `deb` sources of one-line format: `deb [options] uri suite component...`. */
function oneLineSources(text) {
  return text
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter((line) => line.startsWith('deb '))
    .map((line) =>
      line
        .slice(4)
        .replace(/^\[[^\]]*\]\s*/, '')
        .split(/\s+/),
    )
    .map(([uri = '', suite = '', ...components]) => ({ uris: [uri], suites: [suite], components }));
}

/** The `deb` sources of deb822 format: stanzas of `Types`, `URIs`, `Suites`, `Components`, `Enabled`. */
function deb822Sources(text) {
  return text
    .split(/\n\s*\n/)
    .map((stanza) => {
      const fields = {};
      for (const line of stanza.split('\n')) {
        const match = /^([A-Za-z-]+):\s*(.*)$/.exec(line.replace(/#.*/, ''));
        if (match) fields[match[1].toLowerCase()] = match[2].trim().split(/\s+/).filter(Boolean);
      }
      return fields;
    })
    .filter((f) => f.types?.includes('deb') && f.enabled?.[0]?.toLowerCase() !== 'no')
    .map((f) => ({ uris: f.uris ?? [], suites: f.suites ?? [], components: f.components ?? [] }));
}

/** Every `deb` source apt reads on this machine, in apt's order, with the file it came from. */
function aptSources(dir) {
  const parts = join(dir, 'sources.list.d');
  const names = existsSync(parts) ? readdirSync(parts).filter((name) => /\.(list|sources)$/.test(name)) : [];
  return [join(dir, 'sources.list'), ...names.sort().map((name) => join(parts, name))]
    .filter((file) => existsSync(file))
    .flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      const sources = file.endsWith('.sources') ? deb822Sources(text) : oneLineSources(text);
      return sources.map((source) => ({ ...source, file }));
    });
}

/**
 * The Debian archive's URL this machine's apt uses (e.g. `http://deb.debian.org/debian`, or a corporate
 * mirror's); throws naming the files read when none is a Debian release archive.
 */
export function debianMirror(dir = APT) {
  const sources = aptSources(dir);
  const found = sources.find(
    (s) =>
      s.components.includes('main') &&
      s.suites.some((suite) => RELEASE_SUITE.test(suite) && !VENDOR_SUITES.has(suite)) &&
      /^https?:\/\//.test(s.uris[0] ?? ''),
  );
  if (found) return (found.uris[0] ?? '').replace(/\/+$/, '');
  const read = [...new Set(sources.map((s) => s.file))];
  throw new Error(
    `no Debian mirror in this machine's apt sources (${read.length ? read.join(', ') : `nothing under ${dir}`}): ` +
      'the base image is built with mmdebstrap from the mirror apt uses. Add a `deb http(s)://<mirror>/debian ' +
      '<suite> main` line to /etc/apt/sources.list (or a deb822 .sources file in /etc/apt/sources.list.d/).',
  );
}
