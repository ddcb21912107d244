// Writes openapi.json (the API) and openapi.mock.json (the mock's test helpers), the OpenAPI 3.1 documents
// generated from the schemas, the mock's route table and the helper contract (mock/openapi/). `npm run build`
// runs it; test/mock/openapi/document.test.ts fails when a committed file differs from a fresh generation
// (`npm run openapi` updates them).
import { writeFileSync } from 'node:fs';
import { generateMockOpenApi, generateOpenApi } from '../mock/openapi/generate.js';

writeFileSync(new URL('../openapi.json', import.meta.url), generateOpenApi());
writeFileSync(new URL('../openapi.mock.json', import.meta.url), generateMockOpenApi());
console.log('wrote openapi.json and openapi.mock.json');
