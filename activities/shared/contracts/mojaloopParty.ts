import type { Types as Backend } from '@mojaloop/api-snippets/lib/sdk-scheme-adapter/v2_1_0/backend/types';
import type { QuotesPostRequest } from './bodies';

/**
 * A party in the sdk-scheme-adapter's own form (its transferParty, as the outbound and backend APIs give it) as the
 * FSPIOP Party of a PUT /parties or a quote: its model/lib/shared.js internalPartyToMojaloopParty. A pure function of
 * the two forms, shared by the payer's workflow (the quote it builds) and the payee's activities (the party it
 * answers with), so neither imports the other's layer.
 */
export function mojaloopPartyOf(internal: Backend.transferParty, fspId: string): QuotesPostRequest['payee'] {
  type Party = QuotesPostRequest['payee'];
  const party: Party = {
    partyIdInfo: {
      partyIdType: internal.idType as Party['partyIdInfo']['partyIdType'],
      partyIdentifier: internal.idValue,
      ...(internal.idSubValue ? { partySubIdOrType: internal.idSubValue } : {}),
      fspId,
      ...(internal.extensionList?.length ? { extensionList: { extension: internal.extensionList as Array<{ key: string; value: string }> } } : {}),
    },
  };
  if (internal.displayName) party.name = internal.displayName;
  const complexName = {
    ...(internal.firstName ? { firstName: internal.firstName } : {}),
    ...(internal.middleName ? { middleName: internal.middleName } : {}),
    ...(internal.lastName ? { lastName: internal.lastName } : {}),
  };
  if (Object.keys(complexName).length > 0 || internal.dateOfBirth) {
    party.personalInfo = {
      ...(Object.keys(complexName).length > 0 ? { complexName } : {}),
      ...(internal.dateOfBirth ? { dateOfBirth: internal.dateOfBirth } : {}),
    };
  }
  if (internal.merchantClassificationCode !== undefined) party.merchantClassificationCode = internal.merchantClassificationCode;
  return party;
}
