import crypto from 'node:crypto';
import { EntityManager, In } from 'typeorm';
import { errorInformation, type ErrorInformation } from '../../shared/contracts/errors';
import type { TransfersPostRequest } from '../../shared/contracts/bodies';
import { instantOf, lapsed } from '../../shared/contracts/expiry';
import { LedgerTransfer } from '../db/entities';
import { formatAmount } from '../db/money';
import { TransferRecord } from '../db/switchEntities';
import type { TransferState } from '../../shared/contracts/bodies';
import type { HubServices } from '../hubServices';
import { HubError } from '../../shared/platform/hubError';
import { countDecided } from '../metrics/schemeCounters';
import { checkAmount, checkRequest, checkSender, transferAccounts, TransferAccounts } from './prepareChecks';

export interface PrepareInput {
  body: TransfersPostRequest;
  source: string;
  requestHash: string;
}

/** base64url(sha256(fulfilment)): the condition a fulfilment must hash to (ILP, Document 2 transfer rule 6). */
export function conditionOf(fulfilment: string): string {
  return crypto.createHash('sha256').update(Buffer.from(fulfilment, 'base64url')).digest('base64url');
}

/**
 * The transfer's ledger steps. Prepare checks the sender is the payer, records the transfer, checks it as
 * central-ledger does and reserves the payer's amount against its Net Debit Cap and liquidity in one locked
 * transaction; commit and abort resolve that reservation. All are idempotent, so Temporal may retry them freely.
 */
export class Transfers {
  constructor(private readonly services: HubServices) {}

  /**
   * `repeat` means this transfer was decided long ago (its workflow history is gone, its record is not):
   * the caller answers it as a repeated request instead of preparing it again.
   */
  async prepare({ body, source, requestHash }: PrepareInput): Promise<{ outcome: 'reserved' } | { outcome: 'repeat'; transferState: 'COMMITTED' | 'ABORTED' }> {
    const { db, ledger } = this.services;
    const { transferId } = body;
    checkSender(source, body.payerFsp, 'transfer');
    const record = await this.record(body, requestHash);
    if (record.transferState === 'COMMITTED' || record.transferState === 'ABORTED') return { outcome: 'repeat', transferState: record.transferState };
    // The record turns RESERVED in the reservation's own transaction, so a retried prepare that finds it so
    // re-runs no check: one that failed now (expiry passed meanwhile) must not abort a standing reservation.
    if (record.transferState === 'RESERVED') return { outcome: 'reserved' };
    try {
      const accounts = await db.read((manager) => this.check(manager, body));
      await ledger.reserve(
        {
          transferId,
          kind: 'TRANSFER',
          debitAccountId: accounts.payer.id,
          creditAccountId: accounts.payee.id,
          amount: body.amount.amount,
          currency: body.amount.currency,
          expiresAt: new Date(instantOf(body.expiration)),
        },
        {
          alongside: (manager) => finishIn(manager, transferId, 'RESERVED', ['RECEIVED']).then(() => undefined),
        },
      );
    } catch (error) {
      if (error instanceof HubError) await this.aborted(transferId, ['RECEIVED'], { errorInformation: error.errorInformation });
      throw error;
    }
    return { outcome: 'reserved' };
  }

  /**
   * Commits the reservation if the fulfilment hashes to the condition and the transfer has not expired; a wrong or
   * missing fulfilment (3100) or an expired transfer (3303) changes nothing, and the workflow then aborts the
   * transfer, as central-ledger does.
   */
  async commit(input: { transferId: string; fulfilment?: string; payeeWantsNotification: boolean }): Promise<{ completedTimestamp: string }> {
    const record = await this.get(input.transferId);
    if (record.transferState === 'COMMITTED') return { completedTimestamp: record.completedTimestamp!.toISOString() };
    if (!input.fulfilment) throw new HubError('validationError', 'fulfilment is required to commit a transfer');
    if (conditionOf(input.fulfilment) !== record.ilpCondition) {
      throw new HubError('validationError', 'invalid fulfilment: its SHA-256 does not match the transfer condition');
    }
    // As central-ledger's fulfil handler: a fulfilment handled once the transfer has expired commits nothing, however
    // early it arrived (a worker that was down, a signal taken in the same step as the expiry timer). The ledger judges
    // it by the expiry the reservation carries, under the accounts' locks, so a wait for them cannot carry a commit
    // past the expiration either.
    let completed!: Date;
    await this.services.ledger.commit(input.transferId, async (manager) => {
      completed = await finishIn(manager, input.transferId, 'COMMITTED', ['RESERVED'], {
        fulfilment: input.fulfilment,
        payeeWantsNotification: input.payeeWantsNotification,
      });
    });
    return { completedTimestamp: completed.toISOString() };
  }

  /**
   * Releases the reservation, if the ledger holds one, and records why the transfer was aborted, in the
   * same transaction. The ledger decides, not the record: a reservation must never outlive its transfer.
   */
  async abort(input: { transferId: string; errorInformation: ErrorInformation; payeeWantsNotification?: boolean }): Promise<{ completedTimestamp: string }> {
    const { transferId } = input;
    const record = await this.get(transferId);
    const extra = { errorInformation: input.errorInformation, payeeWantsNotification: input.payeeWantsNotification ?? record.payeeWantsNotification };
    const reservation = await this.services.db.read((manager) => manager.findOneBy(LedgerTransfer, { transferId }));
    if (reservation?.state !== 'RESERVED') {
      return { completedTimestamp: (await this.aborted(transferId, ['RECEIVED', 'RESERVED'], extra)).toISOString() };
    }
    let completed!: Date;
    await this.services.ledger.release(transferId, async (manager) => {
      completed = await finishIn(manager, transferId, 'ABORTED', ['RECEIVED', 'RESERVED'], extra);
    });
    return { completedTimestamp: completed.toISOString() };
  }

  /**
   * Aborts a transfer recorded but never prepared (RECEIVED) whose expiration has passed: its workflow ended, or
   * stalled, before it reserved anything, and its payer would otherwise never hear of it. Only from RECEIVED, so a
   * reservation made meanwhile is left to its workflow (its prepare then finds the transfer ABORTED and reserves nothing).
   * Answers the error recorded, to tell the payer, or undefined when `record` was no such transfer.
   */
  async abortUnprepared(record: TransferRecord): Promise<ErrorInformation | undefined> {
    if (record.transferState !== 'RECEIVED' || !lapsed(record.expiration, Date.now())) return undefined;
    const expired = errorInformation('transferExpired', `transfer ${record.transferId} expired before the switch could prepare it`);
    try {
      await this.aborted(record.transferId, ['RECEIVED'], { errorInformation: expired });
    } catch (error) {
      if (error instanceof HubError) return undefined;
      throw error;
    }
    return expired;
  }

  /** Records an abort that has no reservation to release. */
  private aborted(transferId: string, from: TransferState[], extra: FinishExtra): Promise<Date> {
    return this.services.db.transaction((manager) => finishIn(manager, transferId, 'ABORTED', from, extra));
  }

  get(transferId: string): Promise<TransferRecord> {
    return this.services.db.read(async (manager) => {
      const record = await manager.findOneBy(TransferRecord, { transferId });
      if (!record) throw new HubError('transferIdNotFound', `transfer ${transferId} not found`);
      return record;
    });
  }

  find(transferId: string): Promise<TransferRecord | null> {
    return this.services.db.read((manager) => manager.findOneBy(TransferRecord, { transferId }));
  }

  /** Records the transfer as RECEIVED; a record with another request hash means a conflicting duplicate. */
  private async record(body: TransfersPostRequest, requestHash: string): Promise<TransferRecord> {
    const row = {
      transferId: body.transferId,
      payerFsp: body.payerFsp,
      payeeFsp: body.payeeFsp,
      amount: formatAmount(body.amount.amount),
      currency: body.amount.currency,
      ilpCondition: body.condition,
      ilpPacket: body.ilpPacket,
      expiration: new Date(instantOf(body.expiration)),
      requestHash,
      transferState: 'RECEIVED' as TransferState,
      fulfilment: null,
      completedTimestamp: null,
      errorCode: null,
      errorDescription: null,
      payeeWantsNotification: false,
      createdDate: new Date(),
    };
    await this.services.db.transaction(async (manager) => {
      await manager.createQueryBuilder().insert().into(TransferRecord).values(row).orIgnore().execute();
    });
    const stored = await this.get(body.transferId);
    if (stored.requestHash !== requestHash) throw new HubError('modifiedRequest');
    return stored;
  }

  /** The prepare checks of central-ledger, each failure a 3100 naming the reason (or 3202/3203 for unknown FSPs). */
  private async check(manager: EntityManager, body: TransfersPostRequest): Promise<TransferAccounts> {
    checkRequest(body);
    checkAmount(body.amount);
    return transferAccounts(manager, body.payerFsp, body.payeeFsp, body.amount.currency);
  }
}

export interface FinishExtra {
  fulfilment?: string;
  errorInformation?: ErrorInformation;
  payeeWantsNotification?: boolean;
}

/**
 * Moves a transfer's record to its next state, only from the states that may precede it, so nothing that
 * comes late (a retried step, a repeat after the history expired) can rewrite a decided transfer.
 * Reaching a state the record already has is a repeat and changes nothing. A transfer it decides is counted for the
 * scheme's metrics (countDecided), at once, or by the caller with the others of its transaction if it gathers them
 * in `decided`.
 */
export async function finishIn(
  manager: EntityManager,
  transferId: string,
  transferState: TransferState,
  from: TransferState[],
  extra: FinishExtra = {},
  decided?: string[],
): Promise<Date> {
  const completedTimestamp = new Date();
  const result = await manager.update(
    TransferRecord,
    { transferId, transferState: In(from) },
    {
      transferState,
      ...(transferState === 'RESERVED' ? {} : { completedTimestamp }),
      ...(extra.fulfilment ? { fulfilment: extra.fulfilment } : {}),
      ...(extra.payeeWantsNotification === undefined ? {} : { payeeWantsNotification: extra.payeeWantsNotification }),
      ...(extra.errorInformation ? errorColumns(extra.errorInformation) : {}),
    },
  );
  if (result.affected) {
    if (transferState !== 'RESERVED') {
      if (decided) decided.push(transferId);
      else await countDecided(manager, [transferId]);
    }
    return completedTimestamp;
  }
  const current = await manager.findOneBy(TransferRecord, { transferId });
  if (current?.transferState !== transferState) {
    throw new HubError('clientError', `transfer ${transferId} is ${current?.transferState ?? 'unknown'}; it cannot become ${transferState}`);
  }
  return current.completedTimestamp ?? completedTimestamp;
}

/** The record columns of why a transfer (or a bulk) failed; the description cut to what the column holds. */
export function errorColumns(error?: ErrorInformation): { errorCode: string | null; errorDescription: string | null } {
  return { errorCode: error?.errorCode ?? null, errorDescription: error ? error.errorDescription.slice(0, 256) : null };
}
