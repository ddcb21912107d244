/**
 * The layers of `src/` and `mock/`, checked by dependency-cruiser in `npm run lint` (`npm run lint:layers`).
 *
 * Every folder (and every top-level module) of `src/` and `mock/` has one rule naming the layers it may import;
 * anything else in `src/` or `mock/` is a violation reported under that rule's name. A layer may name only
 * layers listed before it (checked when this file loads), so the graph between folders has no cycle. `src/` is the client package and never imports the mock;
 * the mock may import any of `src/`. Bottom to top:
 *
 *   src:  shared < internal, webhooks < otel, schemas < endpoints < core < resources < kyc-readers, money < client < index
 *   mock: sandbox-values < state < contract < engine < observe < policies < http < sandbox-explanations
 *         < machines < operations < routes | helpers < connect < openapi, msw, receiver-check < overrides
 *         < service < conformance < server < bin < index
 */

/** Each layer: the paths it covers and the layers (by name) it may import besides itself. */
const SRC_LAYERS = {
  shared: { path: '^src/shared/', may: [] },
  internal: { path: '^src/internal/', may: ['shared'] },
  // The `inr-payouts/webhooks` entry stays free of the client's dependencies (ky, zod, uuid).
  webhooks: { path: '^src/webhooks/', may: ['shared'] },
  // `inr-payouts/otel`: spans on ky's hooks and the webhook handler's trace option; nothing of the client's code.
  otel: { path: '^src/otel/', may: ['shared', 'webhooks'] },
  schemas: { path: '^src/schemas/', may: ['shared', 'internal', 'webhooks'] },
  // The endpoint table: each `/v2` endpoint's facts, read by the client and the mock alike.
  endpoints: { path: '^src/endpoints/', may: ['shared', 'internal', 'webhooks', 'schemas'] },
  core: { path: '^src/core/', may: ['shared', 'internal', 'webhooks', 'schemas'] },
  resources: {
    path: '^src/resources/',
    may: ['shared', 'internal', 'webhooks', 'schemas', 'endpoints', 'core'],
  },
  'kyc-readers': {
    path: '^src/kyc-readers\\.ts$',
    may: ['shared', 'internal', 'webhooks', 'schemas', 'core'],
  },
  money: { path: '^src/money\\.ts$', may: ['shared', 'internal', 'webhooks', 'schemas', 'core'] },
  client: {
    path: '^src/client\\.ts$',
    may: ['shared', 'internal', 'webhooks', 'schemas', 'endpoints', 'core', 'resources', 'kyc-readers'],
  },
  index: {
    path: '^src/index\\.ts$',
    may: [
      'shared',
      'internal',
      'webhooks',
      'schemas',
      'endpoints',
      'core',
      'resources',
      'kyc-readers',
      'money',
      'client',
    ],
  },
};

const MOCK_BASE = ['sandbox-values', 'state', 'contract', 'engine', 'observe', 'policies', 'http'];
const MOCK_DOMAIN = [...MOCK_BASE, 'sandbox-explanations', 'machines', 'operations'];
const MOCK_SURFACE = [...MOCK_DOMAIN, 'routes', 'helpers', 'connect'];

const MOCK_LAYERS = {
  // The documented sandbox test values: plain data.
  'sandbox-values': { path: '^mock/sandbox-values\\.ts$', may: [] },
  // The simulation's data: one plain JSON object (`MockState`) and its slices.
  state: { path: '^mock/state/', may: ['sandbox-values'] },
  // What the mock answers beyond src/endpoints/: webhook payloads, helpers and their arguments, mock-only fields.
  contract: { path: '^mock/contract/', may: ['sandbox-values', 'state'] },
  // The runtime (clock, timers, tasks, ids, options, journal) and the shapes of a route and its answer.
  engine: { path: '^mock/engine/', may: ['sandbox-values', 'state', 'contract'] },
  // What the service records of itself: the ledger, recordings and replay, refusal explanations.
  observe: { path: '^mock/observe/', may: ['sandbox-values', 'state', 'contract', 'engine'] },
  // The spec's rules every request passes: auth, rate limit, idempotency, faults and chaos.
  policies: { path: '^mock/policies/', may: ['sandbox-values', 'state', 'contract', 'engine', 'observe'] },
  // A request's way through: router, pipeline, dispatch, the in-process fetch and client.
  http: {
    path: '^mock/http/',
    may: ['sandbox-values', 'state', 'contract', 'engine', 'observe', 'policies'],
  },
  'sandbox-explanations': { path: '^mock/sandbox-explanations\\.ts$', may: MOCK_BASE },
  machines: { path: '^mock/machines/', may: MOCK_BASE },
  operations: { path: '^mock/operations/', may: [...MOCK_BASE, 'sandbox-explanations', 'machines'] },
  // Routes and helpers are two faces over the same operations; neither imports the other.
  routes: { path: '^mock/routes/', may: MOCK_DOMAIN },
  helpers: { path: '^mock/helpers/', may: MOCK_DOMAIN },
  connect: { path: '^mock/connect\\.ts$', may: [...MOCK_DOMAIN, 'helpers'] },
  openapi: { path: '^mock/openapi/', may: MOCK_SURFACE },
  msw: { path: '^mock/msw/', may: MOCK_BASE },
  'receiver-check': { path: '^mock/receiver-check/', may: MOCK_SURFACE },
  overrides: { path: '^mock/overrides\\.ts$', may: [...MOCK_SURFACE, 'openapi'] },
  // Neither the service nor the entry may import mock/msw/: it is the entry `inr-payouts/mock/msw`, so that
  // `inr-payouts/mock` never loads msw.
  service: { path: '^mock/service\\.ts$', may: [...MOCK_SURFACE, 'openapi', 'overrides'] },
  // The drift check reads the published contract's schemas as the OpenAPI document builds them. Its probes
  // (mock/conformance/probes/) are of this layer, and speak only HTTP, the endpoint table and the published
  // contract: the rule `probes-speak-http` below keeps the mock's inside out of them.
  conformance: {
    path: '^mock/conformance/',
    may: [...MOCK_SURFACE, 'openapi', 'receiver-check', 'overrides', 'service'],
  },
  server: {
    path: '^mock/server/',
    may: [...MOCK_SURFACE, 'openapi', 'receiver-check', 'overrides', 'service', 'conformance'],
  },
  bin: { path: '^mock/bin/', may: ['server'] },
  index: {
    path: '^mock/index\\.ts$',
    may: [...MOCK_SURFACE, 'openapi', 'receiver-check', 'overrides', 'service', 'conformance', 'server'],
  },
};

/**
 * One rule per layer: importing anything of `root` outside the layer itself and the layers it may import. A
 * layer may name only layers listed before it, which keeps the graph between folders free of cycles.
 */
function layerRules(root, layers) {
  const names = Object.keys(layers);
  return Object.entries(layers).map(([name, layer], position) => {
    for (const other of layer.may) {
      if (!(other in layers) || names.indexOf(other) >= position) {
        throw new Error(
          `.dependency-cruiser.cjs: ${root}/${name} may import only layers listed before it, not "${other}"`,
        );
      }
    }
    const allowed = [name, ...layer.may].map((other) => layers[other].path);
    const may = layer.may.length > 0 ? layer.may.join(', ') : `nothing else in ${root}/`;
    return {
      name: `${root}/${name}`,
      severity: 'error',
      comment: `${root}/${name} may import only itself and: ${may}. Move the code to the layer where it belongs rather than importing upwards.`,
      from: { path: layer.path },
      to: { path: `^${root}/`, pathNot: allowed },
    };
  });
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules('src', SRC_LAYERS),
    ...layerRules('mock', MOCK_LAYERS),
    {
      name: 'src-not-mock',
      severity: 'error',
      comment:
        'The client package (src/) never imports the mock: a partner who installs the client gets no mock code.',
      from: { path: '^src/' },
      to: { path: '^mock/' },
    },
    {
      name: 'msw-only-in-its-entry',
      severity: 'error',
      comment:
        'Only mock/msw/ (the entry inr-payouts/mock/msw) imports msw: inr-payouts/mock and the client never load ' +
        'it, so a suite on mock.fetch pays nothing for msw. Take the handlers from mock/msw/ instead.',
      from: { path: '^(src|mock)/', pathNot: '^mock/msw/' },
      to: { path: '(^|/)node_modules/msw/' },
    },
    {
      name: 'probes-speak-http',
      severity: 'error',
      comment:
        "The drift check's probes judge a target by what it answers over HTTP, against the endpoint table and the " +
        "published contract: never by the mock's routes, operations, machines, pipeline or policies.",
      from: { path: '^mock/conformance/probes/' },
      to: {
        path: '^mock/(routes|operations|machines|http|policies|helpers|service|server|overrides)(/|\\.ts$)',
      },
    },
    {
      name: 'not-test',
      severity: 'error',
      comment: 'Shipped code never imports test/: move what both need into src/ or mock/.',
      from: { path: '^(src|mock)/' },
      to: { path: '^test/' },
    },
    {
      name: 'every-module-in-a-layer',
      severity: 'error',
      comment:
        'Every module of src/ and mock/ belongs to a layer: add its folder (or top-level file) to .dependency-cruiser.cjs.',
      from: {
        path: '^(src|mock)/',
        pathNot: [...Object.values(SRC_LAYERS), ...Object.values(MOCK_LAYERS)].map((layer) => layer.path),
      },
      to: {},
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Modules that load each other in a cycle: one of them holds code that belongs lower down. (Type-only ' +
        'references inside one folder are allowed; across folders the layer rules forbid them.)',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    // Only src/ and mock/ are cruised; an import of test/ or a package is reported, not followed.
    doNotFollow: { path: ['node_modules', '^(test|scripts|examples|dist)/'] },
    // Type-only imports count: a type cycle between layers is still a cycle to a reader.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
