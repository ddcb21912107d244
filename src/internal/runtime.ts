/** True in a browser page (not in Node, Deno, Bun or a worker), where an API key would ship to end users. */
export function isBrowser(): boolean {
  const g = globalThis as {
    window?: unknown;
    document?: unknown;
    process?: { versions?: { node?: string } };
  };
  return typeof g.window !== 'undefined' && typeof g.document !== 'undefined' && !g.process?.versions?.node;
}

/** Reads an environment variable where the runtime has `process.env`; undefined elsewhere (edge, browser). */
export function readEnv(name: string): string | undefined {
  const g = globalThis as { process?: { env?: Record<string, string | undefined> } };
  const value = g.process?.env?.[name]?.trim();
  return value ? value : undefined;
}
