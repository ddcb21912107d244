// @hey-api/openapi-ts: one client per document, the API's and the mock helpers', each throwing on an error
// answer so a call's `data` is the success body's type.
const client = { name: '@hey-api/client-fetch', throwOnError: true };

export default [
  { input: '../../openapi.json', output: 'generated/api', plugins: [client] },
  { input: '../../openapi.mock.json', output: 'generated/mock', plugins: [client] },
];
