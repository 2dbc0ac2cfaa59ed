import fs from 'node:fs';
import path from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import YAML from 'yaml';
import { adminDocument } from '../../api/admin/adminValidation';

/**
 * The OpenAPI documents the fuzz suite is driven by, read on their own, apart from the gateway's validators: the
 * published bundles of FSPIOP v1.1 and the third-party API v1.0 (@mojaloop/api-snippets' docs, every $ref inside the
 * one file) and the central-ledger admin document, as the hub reads it (numeric strings for numbers, NET settlement:
 * its two documented departures). What they say a body must be is the oracle for whether a mutated body is malformed.
 */
export type Api = 'fspiop' | 'thirdparty' | 'admin';

const snippets = path.join(path.dirname(require.resolve('@mojaloop/api-snippets/package.json')), 'docs');
const read = (file: string) => () => YAML.parse(fs.readFileSync(path.join(snippets, file), 'utf-8'));
const DOCUMENTS: Record<Api, () => unknown> = {
  fspiop: read('fspiop-rest-v1.1-openapi3-snippets.yaml'),
  thirdparty: read('thirdparty-v1.0-openapi3-snippets.yaml'),
  admin: adminDocument,
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** One path and method of a document, with the schema its request body must follow, if it takes one. */
export interface Operation {
  api: Api;
  method: string;
  /** The path as the document writes it, `{ID}` and all. */
  path: string;
  /** `${method} ${path}`, the key the samples are declared under. */
  key: string;
  /** Whether a body is a document-valid one; undefined when the operation takes no body. */
  validBody?: ValidateFunction;
}

interface Document {
  paths: Record<string, Partial<Record<(typeof METHODS)[number], { requestBody?: { content?: Record<string, { schema?: object }> } }>>>;
}

const documents = new Map<Api, { operations: Operation[] }>();

/** Every operation of the API's document: each path with each of its methods. */
export function operationsOf(api: Api): Operation[] {
  let loaded = documents.get(api);
  if (!loaded) {
    loaded = { operations: load(api) };
    documents.set(api, loaded);
  }
  return loaded.operations;
}

function load(api: Api): Operation[] {
  const document = DOCUMENTS[api]() as Document;
  // OpenAPI 3.0 keywords (nullable, example, x-…) are not JSON Schema: not strict. The documents' formats are checked.
  const ajv = new Ajv({ strict: false, allErrors: false });
  addFormats(ajv);
  ajv.addSchema({ ...document, $id: api });
  const operations: Operation[] = [];
  for (const [at, item] of Object.entries(document.paths)) {
    // The FSPIOP and third-party bundles list unused schemas under /interface so that code generators see them.
    if (at === '/interface') continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const schema = Object.values(operation.requestBody?.content ?? {})[0]?.schema;
      operations.push({
        api,
        method: method.toUpperCase(),
        path: at,
        key: `${method.toUpperCase()} ${at}`,
        validBody: schema ? ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/', `"${api}#/`))) : undefined,
      });
    }
  }
  return operations;
}
