// Writes openapi.json, the OpenAPI 3.1 document generated from the schemas and the mock's route table
// (mock/openapi/). `npm run build` runs it; test/openapi/document.test.ts fails when the committed file differs
// from a fresh generation (`npm run openapi` updates it).
import { writeFileSync } from 'node:fs';
import { generateOpenApi } from '../mock/openapi/generate.js';

writeFileSync(new URL('../openapi.json', import.meta.url), generateOpenApi());
console.log('wrote openapi.json');
