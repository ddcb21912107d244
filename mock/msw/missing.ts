/** The error of `mock.handlers` when msw is not there to build them, for both builds' loaders. */
export function mswMissing(cause: unknown): Error {
  const reason = cause instanceof Error ? cause.message : String(cause);
  const notInstalled = /Cannot find (module|package) ['"]msw['"]|ERR_MODULE_NOT_FOUND.*msw/.test(reason);
  return new Error(
    notInstalled
      ? 'mock.handlers needs msw (npm install -D msw). Without msw, pass mock.fetch as the fetch of your ' +
          'client (mock.createClient() already does): it serves the mock in-process with no interception.'
      : `mock.handlers could not load msw here: ${reason}. Pass mock.fetch as your client's fetch instead ` +
          '(mock.createClient() already does); under Jest, msw needs NODE_OPTIONS=--experimental-vm-modules ' +
          '(docs/testing-with-the-mock.md, "Jest").',
    { cause },
  );
}
