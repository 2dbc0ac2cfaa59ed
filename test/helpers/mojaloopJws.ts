import { createRequire } from 'node:module';
import path from 'node:path';
import { repoRoot } from '../../activities/shared/platform/config';

/** Mojaloop's own signer and validator (sdk-standard-components), as its SDK DFSPs use them. */
export interface MojaloopJws {
  /** Adds fspiop-http-method, fspiop-uri and fspiop-signature to a request's headers, as the SDK does before sending. */
  sign(request: { method: string; uri: string; headers: Record<string, string>; body: unknown }): void;
  /** Throws unless the request's signature holds; `body` is the parsed body, as the SDK's inbound server has it. */
  validate(request: { headers: Record<string, string>; body: unknown }): void;
}

/**
 * The standard components the suite's sdk-scheme-adapter 18.0.2 DFSPs sign and validate with (17.x), wherever npm put
 * them: the suite's own 19.x peers (standardPeers.ts) pin a later major, whose validator reads a body otherwise.
 */
const SDK_MANIFEST = path.join(repoRoot, '.interop', 'node_modules', '@mojaloop', 'sdk-scheme-adapter', 'package.json');
function resolved(): string | undefined {
  try {
    return createRequire(SDK_MANIFEST).resolve('@mojaloop/sdk-standard-components/src/lib/jws');
  } catch {
    return undefined;
  }
}

const jwsModule = resolved();

/** Why Mojaloop's JWS code cannot be loaded here, for a test's skip message; undefined when it can. */
export const mojaloopJwsMissing = jwsModule
  ? undefined
  : `Mojaloop's sdk-standard-components is not installed beside ${SDK_MANIFEST} (npm run interop installs it)`;

const quiet = { isDebugEnabled: () => false, debug: () => undefined };

/** Mojaloop's signer for `signingKey` and validator over `validationKeys` (PEM by FSPIOP-Source). */
export function mojaloopJws(signingKey: string, validationKeys: Record<string, string>): MojaloopJws {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { signer: Signer, validator: Validator } = require(jwsModule!);
  const signer = new Signer({ logger: quiet, signingKey });
  const validator = new Validator({ logger: quiet, validationKeys });
  return {
    sign: (request) => signer.sign(request),
    validate: (request) => validator.validate(request),
  };
}
