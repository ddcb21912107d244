/**
 * The mock's layers import downwards only: core → state → machines → operations → routes, helpers and the server.
 * Helpers and operations reach state through operations, never through a route file, so a route can change
 * without breaking a helper and every path (route, helper, clock task) moves state the same way.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const mockDir = resolve(import.meta.dirname, '../../../mock');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every module a file imports (static `import ... from` and `export ... from`), resolved to a path under `mock/`. */
function importsOf(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const specifiers = [...source.matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)'/gms)].map(
    (m) => m[1] ?? '',
  );
  return specifiers
    .filter((s) => s.startsWith('.'))
    .map((s) => relative(mockDir, resolve(file, '..', s)).replaceAll('\\', '/'));
}

function offenders(layer: string, forbidden: string): string[] {
  return filesUnder(join(mockDir, layer)).flatMap((file) =>
    importsOf(file)
      .filter((target) => target.startsWith(`${forbidden}/`))
      .map((target) => `${relative(mockDir, file)} imports ${target}`),
  );
}

describe('mock layers', () => {
  it('reads the import lines it checks', () => {
    // The checker itself must see imports, or the assertions below would pass vacuously.
    expect(importsOf(join(mockDir, 'helpers/transactions.ts'))).toContain('operations/deposits.js');
  });

  it('no helper imports a route file', () => {
    expect(offenders('helpers', 'handlers')).toEqual([]);
  });

  it('no operation imports a route file or a helper', () => {
    expect([...offenders('operations', 'handlers'), ...offenders('operations', 'helpers')]).toEqual([]);
  });

  it('machines and state stay below the operations', () => {
    for (const layer of ['machines', 'state']) {
      for (const above of ['operations', 'handlers', 'helpers', 'server']) {
        expect(offenders(layer, above)).toEqual([]);
      }
    }
  });
});
