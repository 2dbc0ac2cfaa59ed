import { HttpError } from '../http/httpError';
import type { FspiopRequest } from './headers';

/**
 * What of FSPIOP v1.1's bodies the switch never reads, and so what may travel encrypted through it: the parties'
 * descriptions (`name`, `personalInfo`), a quote's or transaction's `note`, an authorization's `authenticationInfo`.
 * Everything else (IDs, FSP IDs, amounts, the ILP packet, condition, fulfilment, expiration, states) the switch routes,
 * checks or books by, so it must be in clear.
 */
const CONFIDENTIAL = new Set(['name', 'personalInfo', 'note', 'authenticationInfo']);

const MALFORMED = 'header FSPIOP-Encryption must be {"encryptedFields":[{"fieldName":"…",…},…]}';

function fieldNamesOf(header: string): string[] {
  let fields: unknown;
  try {
    fields = (JSON.parse(header) as { encryptedFields?: unknown } | null)?.encryptedFields;
  } catch {
    throw new HttpError(400, 'malformedSyntax', MALFORMED);
  }
  const names = Array.isArray(fields) ? fields.map((field) => (field as { fieldName?: unknown } | null)?.fieldName) : [];
  if (names.length === 0 || !names.every((name): name is string => typeof name === 'string' && name !== '')) {
    throw new HttpError(400, 'malformedSyntax', MALFORMED);
  }
  return names;
}

/**
 * The body fields a message's FSPIOP-Encryption names (Document 2, "Confidentiality: field encryption"), as JSON
 * pointers (`payee.personalInfo.dateOfBirth` → `/payee/personalInfo/dateOfBirth`): each value is cipher text in place
 * of what the schema describes, so validateFspiop does not hold them to it. The hub decrypts nothing: the fields pass
 * on as sent, under the sender's signature, which covers the header (activities/platform/jws.ts). A field the switch
 * reads cannot be encrypted (3100).
 */
export function encryptedFields(fspiop: FspiopRequest): string[] {
  const header = fspiop.headers['fspiop-encryption'];
  if (!header) return [];
  return fieldNamesOf(header).map((name) => {
    const path = name.split('.');
    if (!path.some((element) => CONFIDENTIAL.has(element))) {
      throw new HttpError(400, 'validationError', `FSPIOP-Encryption names ${name}, which the switch reads: it must travel in clear`);
    }
    return `/${path.join('/')}`;
  });
}
