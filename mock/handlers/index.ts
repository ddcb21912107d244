/**
 * Every module of the mock. Adding a handler file is one line here; a service serves them in this order,
 * then the core catch-all.
 */
import type { MockModule } from '../core/module.js';
import { users } from './users.js';
import { email } from './verification/email.js';
import { mobile } from './verification/mobile.js';

/**
 * The modules every service serves.
 * @example
 * const routes = modules.flatMap((m) => m.routes);
 */
export const modules: MockModule[] = [users, mobile, email];
