// Hooks (ky's own): a trace header on every request and one log line per answer, as a ky user writes them. The
// Authorization header a hook sees is masked (`Bearer pk_sandbox_***`); the client puts the real key on the request
// only as it is sent. docs/getting-started.md shows the same hooks ("Tracing, logging and metrics").

import { fileURLToPath } from 'node:url';
import { PayoutClient } from 'inr-payouts';
import { createMockService } from 'inr-payouts/mock';
import { mswHandlers, onUnhandled } from 'inr-payouts/mock/msw';
import { setupServer } from 'msw/node';

export async function main() {
  const mock = createMockService();
  const server = setupServer(...mswHandlers(mock));
  server.listen(onUnhandled('error')); // msw 2 and 3: a request no handler serves fails
  // What reached the service: the trace header of each request.
  const traces: string[] = [];
  server.events.on('request:start', ({ request }) => {
    traces.push(request.headers.get('x-trace-id') ?? '');
  });
  try {
    const client = new PayoutClient({
      apiKey: mock.sandboxKey,
      baseUrl: mock.baseUrl,
      clock: mock.clientClock,
      hooks: {
        beforeRequest: [
          (request, _options, { retryCount }) => {
            // One trace per logical call: a retry keeps the header its first attempt got.
            if (retryCount === 0) request.headers.set('X-Trace-Id', crypto.randomUUID());
          },
        ],
        afterResponse: [
          (request, _options, response, { retryCount }) => {
            console.log(
              `${request.method} ${new URL(request.url).pathname} -> ${response.status} ` +
                `(trace ${request.headers.get('X-Trace-Id')}, retry ${retryCount}, ${request.headers.get('Authorization')})`,
            );
          },
        ],
      },
    });
    const account = await client.account.retrieve();
    const user = await client.users.create({ mobile: '9876543210', name: 'Asha Rao' });
    return { account, user, traces };
  } finally {
    server.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
