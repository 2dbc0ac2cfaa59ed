import type { KeyObject } from 'node:crypto';
import { sign } from '../../activities/shared/platform/jws';
import type { FspiopCall } from './switchHarness';

/** Where a test forges a signature: headers or a body other than those sent are signed. */
export interface Forgery {
  signedHeaders?: Record<string, string>;
  signedBody?: string;
}

/**
 * A call as a signing DFSP sends it, Mojaloop's way: FSPIOP-URI and FSPIOP-HTTP-Method named, all signed with `key`.
 * Its Date is set here, since the signature covers it.
 */
export async function signedCall(method: string, urlPath: string, call: FspiopCall, key: KeyObject, forgery: Forgery = {}): Promise<FspiopCall> {
  const text = typeof call.body === 'string' ? call.body : JSON.stringify(call.body);
  const headers: Record<string, string | undefined> = {
    date: new Date().toUTCString(),
    'fspiop-source': call.source,
    'fspiop-destination': call.destination,
    'fspiop-uri': urlPath,
    'fspiop-http-method': method,
    ...call.headers,
  };
  const signature = await sign({ ...headers, ...forgery.signedHeaders }, forgery.signedBody ?? text, key);
  return { ...call, body: text, headers: { ...headers, 'fspiop-signature': signature } };
}
