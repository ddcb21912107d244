// The testing guide's msw set-up, type-checked: mswHandlers(mock) handed to setupServer and server.use, beside a
// partner's own msw handler. check.mjs compiles it only where msw is installed.
import { createMockService } from 'inr-payouts/mock';
import { mswHandlers, onUnhandled } from 'inr-payouts/mock/msw';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';

const mock = createMockService({ seed: 'types' });
export const server = setupServer(...mswHandlers(mock));
server.use(...mswHandlers(mock));
server.use(
  http.get('https://partner.test/health', () => HttpResponse.json({ ok: true })),
  ...mswHandlers(mock),
);
server.resetHandlers(...mswHandlers(mock));
// The guard under both majors' names: it must be assignable to msw 2's listen options and to msw 3's.
server.listen(onUnhandled('error'));
server.listen(onUnhandled('bypass'));
