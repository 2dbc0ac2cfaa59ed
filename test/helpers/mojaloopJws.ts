import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../activities/shared/platform/config';

/** Mojaloop's own signer and validator (sdk-standard-components), as its SDK DFSPs use them. */
export interface MojaloopJws {
  /** Adds fspiop-http-method, fspiop-uri and fspiop-signature to a request's headers, as the SDK does before sending. */
  sign(request: { method: string; uri: string; headers: Record<string, string>; body: unknown }): void;
  /** Throws unless the request's signature holds; `body` is the parsed body, as the SDK's inbound server has it. */
  validate(request: { headers: Record<string, string>; body: unknown }): void;
}

const JWS_MODULE = path.join(repoRoot, '.interop', 'node_modules', '@mojaloop', 'sdk-standard-components', 'src', 'lib', 'jws');

/** Why Mojaloop's JWS code cannot be loaded here, for a test's skip message; undefined when it can. */
export const mojaloopJwsMissing = fs.existsSync(JWS_MODULE)
  ? undefined
  : `Mojaloop's sdk-standard-components is not installed at ${JWS_MODULE} (npm run interop installs it)`;

const quiet = { isDebugEnabled: () => false, debug: () => undefined };

/** Mojaloop's signer for `signingKey` and validator over `validationKeys` (PEM by FSPIOP-Source). */
export function mojaloopJws(signingKey: string, validationKeys: Record<string, string>): MojaloopJws {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { signer: Signer, validator: Validator } = require(JWS_MODULE);
  const signer = new Signer({ logger: quiet, signingKey });
  const validator = new Validator({ logger: quiet, validationKeys });
  return {
    sign: (request) => signer.sign(request),
    validate: (request) => validator.validate(request),
  };
}
