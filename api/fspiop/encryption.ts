import type { FspiopRequest } from './headers';

/**
 * What of FSPIOP v1.1's bodies the switch never reads, and so what may travel encrypted through it: the parties'
 * descriptions (`name`, `personalInfo`), a quote's or transaction's `note`, an authorization's `authenticationInfo`.
 * Everything else (IDs, FSP IDs, amounts, the ILP packet, condition, fulfilment, expiration, states) the switch routes,
 * checks or books by, so it is validated as sent whatever the header says.
 */
const CONFIDENTIAL = new Set(['name', 'personalInfo', 'note', 'authenticationInfo']);

function fieldNamesOf(header: string): string[] {
  try {
    const fields = (JSON.parse(header) as { encryptedFields?: unknown } | null)?.encryptedFields;
    if (!Array.isArray(fields)) return [];
    return fields
      .map((field) => (field as { fieldName?: unknown } | null)?.fieldName)
      .filter((name): name is string => typeof name === 'string' && name !== '');
  } catch {
    return [];
  }
}

/**
 * The body fields a message's FSPIOP-Encryption names (Document 2, "Confidentiality: field encryption") that the switch
 * does not read, as JSON pointers (`payee.personalInfo.dateOfBirth` → `/payee/personalInfo/dateOfBirth`): each value is
 * cipher text in place of what the schema describes, so validateFspiop does not hold them to it. The header is end to
 * end: the recipient validates it and decrypts, the switch passes it on untouched (covered by the sender's signature,
 * activities/shared/platform/jws.ts), so one it cannot read, or one naming a field the switch reads, exempts nothing and is
 * refused by no one but the recipient, as in Mojaloop.
 */
export function encryptedFields(fspiop: FspiopRequest): string[] {
  const header = fspiop.headers['fspiop-encryption'];
  if (!header) return [];
  return fieldNamesOf(header)
    .map((name) => name.split('.'))
    .filter((path) => path.some((element) => CONFIDENTIAL.has(element)))
    .map((path) => `/${path.join('/')}`);
}
