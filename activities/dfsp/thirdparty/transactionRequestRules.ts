import { errorInformation } from '../../shared/contracts/errors';
import type { ThirdpartyRequestsTransactionsPostRequest } from '../../shared/contracts/bodies';
import type { Checked } from '../../shared/contracts/checked';
import type { GrantedConsent, PayingAccount } from '../backend/thirdpartyBackend';

/** What a valid request pays from: the consent that allows it and the account's holder, as the quote names the payer. */
export interface PayingFrom {
  consentId: string;
  address: string;
  holder: PayingAccount['holder'];
}

const refused = (detail: string) => ({ ok: false as const, errorInformation: errorInformation('transactionRequestNotValid', detail) });

/**
 * Document 1, payment flow rule 3: (a) the payer is a THIRD_PARTY_LINK this DFSP issued to the PISP in
 * FSPIOP-Source, (b) through a consent that is VERIFIED and allows ACCOUNTS_TRANSFER on that account, (c) the account
 * is active and transacts in the request's currency (whether it holds the amount is the bank's hold, taken next), (d)
 * the payee's FSP is named, as the quote must be addressed to it. `consent` is the PISP's VERIFIED consent over the account, `account` the bank's account.
 */
export function checkTransactionRequest(
  request: ThirdpartyRequestsTransactionsPostRequest,
  consent: GrantedConsent | undefined,
  account: PayingAccount | undefined,
): Checked<PayingFrom> {
  const { payer, amount } = request;
  if (payer.partyIdType !== 'THIRD_PARTY_LINK') return refused('payer.partyIdType must be THIRD_PARTY_LINK');
  if (!consent) return refused(`payer ${payer.partyIdentifier} is not linked to a valid consent of the PISP`);
  const scope = consent.scopes.find((candidate) => candidate.address === payer.partyIdentifier);
  if (!scope?.actions.includes('ACCOUNTS_TRANSFER')) return refused('the consent does not allow ACCOUNTS_TRANSFER from the account');
  if (!account?.active) return refused('the account is not active');
  if (account.currency !== amount.currency) return refused(`the account does not transact in ${amount.currency}`);
  if (!request.payee.partyIdInfo.fspId) return refused('payee.partyIdInfo.fspId is required to quote with the payee FSP');
  return { ok: true, consentId: consent.consentId, address: account.address, holder: account.holder };
}
