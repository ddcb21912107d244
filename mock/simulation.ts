/** Former names of `MockService` (mock/service.ts), until every module imports it from there. */
export { createMockService as createMockSimulation, type MockService as MockSimulation } from './service.js';
