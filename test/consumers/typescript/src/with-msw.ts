// The testing guide's msw set-up, type-checked: mock.handlers handed to setupServer and server.use, beside a
// partner's own msw handler. check.mjs compiles it only where msw is installed.
import { createMockService } from 'inr-payouts/mock';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';

const mock = createMockService({ seed: 'types' });
export const server = setupServer(...mock.handlers);
server.use(...mock.handlers);
server.use(
  http.get('https://partner.test/health', () => HttpResponse.json({ ok: true })),
  ...mock.handlers,
);
server.resetHandlers(...mock.handlers);
