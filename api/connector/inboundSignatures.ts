import type { ConnectorConfig } from '../../activities/connector/connectorConfig';
import type { SignedHeaders } from '../../activities/shared/platform/jws';
import { publicKeyOf, signatureProblem } from '../../activities/shared/platform/jws';
import { directoryKey } from '../../activities/shared/platform/jwsKeyDirectory';
import { HttpError } from '../../activities/shared/platform/httpError';

/** Throws the 400 (3105) for a message whose signature does not hold. */
export type SignatureCheck = (headers: SignedHeaders, body: string) => Promise<void>;

/**
 * A connector's check of what the switch delivers to it, where VALIDATE_INBOUND_JWS is on (the SDK's setting): every
 * message with a body must be signed by its FSPIOP-Source, whose public key is `<fspId>.pem` in
 * JWS_VERIFICATION_KEYS_DIRECTORY (the hub's under its own name), read as each message comes, so a key put there
 * applies at once. A message that fails is refused 400 with 3105, as the SDK refuses it. Only JwsValidator's checks
 * apply: the signed FSPIOP-URI names the sender's request to the switch, not the path the switch delivers at.
 */
export function inboundSignatures(config: Pick<ConnectorConfig, 'validateInboundJws' | 'jwsVerificationKeysDirectory'>): SignatureCheck | undefined {
  if (!config.validateInboundJws) return undefined;
  return async (headers, body) => {
    const source = headers['fspiop-source'] ?? '';
    let problem: string | undefined;
    try {
      const pem = await directoryKey(config.jwsVerificationKeysDirectory, source);
      problem = pem ? await signatureProblem({ headers, body }, publicKeyOf(pem, `the key of ${source}`)) : `no public key for ${source}`;
    } catch (error) {
      problem = (error as Error).message;
    }
    if (problem) throw new HttpError(400, 'invalidSignature', problem);
  };
}
