import type { EntityManager } from 'typeorm';
import type { TransfersPostRequest } from '../../shared/contracts/bodies';
import { type Expiration, lapsed } from '../../shared/contracts/expiry';
import { ParticipantAccount } from '../db/entities';
import { Decimal, unrepresentableAmount } from '../db/money';
import { HubError } from '../../shared/platform/hubError';
import { findParticipant } from '../db/accounts';

/** Who a transfer request (a single transfer or a bulk) is between and until when it holds. */
export interface TransferRequest {
  payerFsp: string;
  payeeFsp: string;
  expiration: Expiration;
}

/** The ledger accounts one transfer moves in its currency. */
export interface TransferAccounts {
  payer: ParticipantAccount;
  payee: ParticipantAccount;
}

/** central-ledger's fixed words for a request not sent by its payer, which Mojaloop's tooling matches on. */
const NOT_FROM_PAYER = { transfer: 'FSPIOP-Source header should match Payer', bulk: 'FSPIOP-Source header should match Payer FSP' };

/**
 * central-ledger's first check of a transfer request (a single transfer or a bulk): it comes from the payer it names
 * (3100 otherwise). It runs before anything is recorded, so that no one but the payer can take the request's ID.
 */
export function checkSender(source: string, payerFsp: string, request: keyof typeof NOT_FROM_PAYER): void {
  if (source !== payerFsp) throw new HubError('validationError', NOT_FROM_PAYER[request]);
}

/**
 * central-ledger's checks of a request as a whole, each failure a 3100 naming the reason: the expiration has not lapsed
 * (one lapsing at this very instant could never commit), payer and payee differ.
 */
export function checkRequest({ payerFsp, payeeFsp, expiration }: TransferRequest, now = Date.now()): void {
  if (lapsed(expiration, now)) throw new HubError('validationError', `expiration ${expiration} is not in the future`);
  if (payerFsp === payeeFsp) throw new HubError('validationError', 'payerFsp and payeeFsp must differ');
}

/** An amount the ledger holds exactly, and more than zero (3100 otherwise). */
export function checkAmount(money: TransfersPostRequest['amount']): void {
  const amount = new Decimal(money.amount);
  const problem = unrepresentableAmount(amount);
  if (problem) throw new HubError('validationError', `amount ${money.amount} ${problem}`);
  if (amount.isZero()) throw new HubError('validationError', 'amount must be greater than zero');
}

/** The payer's and payee's active POSITION accounts in the currency. */
export async function transferAccounts(manager: EntityManager, payerFsp: string, payeeFsp: string, currency: string): Promise<TransferAccounts> {
  const payer = await positionAccount(manager, payerFsp, currency, 'payerFspIdNotFound');
  const payee = await positionAccount(manager, payeeFsp, currency, 'payeeFspIdNotFound');
  return { payer, payee };
}

/** A participant that exists (else `unknown`: 3202 or 3203) and is active (else `inactive`). */
export async function activeParticipant(
  manager: EntityManager,
  name: string,
  unknown: 'payerFspIdNotFound' | 'payeeFspIdNotFound',
  inactive: 'payerFspIdNotFound' | 'payeeFspIdNotFound' | 'validationError',
) {
  const participant = await findParticipant(manager, name).catch((error) => {
    // Only "not found" names the FSP unknown; a database fault must stay retryable.
    throw error instanceof HubError ? new HubError(unknown, `Participant ${name} not found`) : error;
  });
  if (!participant.isActive) throw new HubError(inactive, `Participant ${name} is inactive`);
  return participant;
}

async function positionAccount(
  manager: EntityManager,
  name: string,
  currency: string,
  unknown: 'payerFspIdNotFound' | 'payeeFspIdNotFound',
): Promise<ParticipantAccount> {
  const participant = await activeParticipant(manager, name, unknown, 'validationError');
  const position = await manager.findOneBy(ParticipantAccount, { participantId: participant.participantId, currency, ledgerAccountType: 'POSITION' });
  // central-ledger's words, which Mojaloop's tooling matches on.
  if (!position) throw new HubError('validationError', `Participant ${name} ${currency} account not found`);
  if (!position.isActive) throw new HubError('validationError', `Participant ${name} ${currency} account is inactive`);
  return position;
}
