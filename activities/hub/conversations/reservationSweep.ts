import type { Logger } from 'pino';
import { And, Equal, IsNull, LessThan, MoreThan } from 'typeorm';
import { errorInformation, type ErrorInformation } from '../../shared/contracts/errors';
import { lapsed } from '../../shared/contracts/expiry';
import type { CallbackSender } from '../delivery/callbacks';
import { LedgerTransfer } from '../db/entities';
import { PAYMENT_KIND } from '../ledger/ledger';
import { BulkTransferItem, TransferRecord } from '../db/switchEntities';
import type { HubServices } from '../hubServices';
import type { Transfers } from './transfers';

/** How long after its expiration a reservation may stand before the sweep releases it. */
export const SWEEP_GRACE_MS = 5 * 60_000;

/** Where a sweep has got to: the last transfer it read, in the order it reads them. */
export interface SweepCursor {
  expiration: string;
  transferId: string;
}

export interface StalePage {
  transferIds: string[];
  next?: SweepCursor;
}

/**
 * The backstop behind the transfer workflows' own expiry: a reservation whose transfer (or bulk item) expired long
 * ago and is still held (its workflow was terminated, or failed) is released and both sides are told 3303 (about
 * a bulk item, only through its bulk's GET), so a payer's Net Debit Cap headroom can never be lost for good. A transfer
 * recorded but never prepared (RECEIVED) that expired long ago is aborted the same way, and its payer told. Any other
 * reservation past its expiry (a funds out nobody committed or aborted) is released too, so no kind of reservation
 * holds a balance for ever.
 */
export class ReservationSweep {
  constructor(
    private readonly services: HubServices,
    private readonly transfers: Transfers,
    private readonly sender: CallbackSender,
    private readonly log: Logger,
  ) {}

  /**
   * A page of the reservations (of transfers, bulk items, funds out) still held, and of the transfers never prepared,
   * more than `graceMs` after their expiry, oldest first, from `after` on; `next` is where the following page starts,
   * absent on the last. Held reservations are read from the ledger, by the expiry each carries, whatever their kind;
   * transfers never prepared hold nothing in the ledger and are read from their records (RECEIVED). The release
   * decides from the ledger.
   */
  async stale({ after, graceMs = SWEEP_GRACE_MS, limit = 500 }: { after?: SweepCursor; graceMs?: number; limit?: number } = {}): Promise<StalePage> {
    const cutoff = new Date(Date.now() - graceMs);
    // Keyset paging on (expiry, transferId) over both: a transfer whose release failed is passed over, never read again and again.
    const from = <Where>(base: Where, column: string, before: Date) =>
      after
        ? [
            { ...base, [column]: And(MoreThan(new Date(after.expiration)), LessThan(before)) },
            { ...base, [column]: Equal(new Date(after.expiration)), transferId: MoreThan(after.transferId) },
          ]
        : { ...base, [column]: LessThan(before) };
    const [reserved, unprepared] = await this.services.db.read(async (manager) => [
      (
        await manager.find(LedgerTransfer, {
          where: from({ state: 'RESERVED' as const }, 'expiresAt', cutoff),
          select: { transferId: true, expiresAt: true },
          order: { expiresAt: 'ASC', transferId: 'ASC' },
          take: limit,
        })
      ).map(({ transferId, expiresAt }) => ({ transferId, expiration: expiresAt! })),
      await manager.find(TransferRecord, {
        where: from({ transferState: 'RECEIVED' as const }, 'expiration', cutoff),
        select: { transferId: true, expiration: true },
        order: { expiration: 'ASC', transferId: 'ASC' },
        take: limit,
      }),
    ]);
    const byKey = (a: { transferId: string; expiration: Date }, b: { transferId: string; expiration: Date }) =>
      a.expiration.getTime() - b.expiration.getTime() || (a.transferId < b.transferId ? -1 : a.transferId > b.transferId ? 1 : 0);
    const page = [...reserved, ...unprepared].sort(byKey).slice(0, limit);
    const last = page.at(-1);
    // A full page may have more behind it, in either source: the next starts after the last one taken.
    return {
      transferIds: page.map((stale) => stale.transferId),
      ...(last && page.length === limit ? { next: { expiration: last.expiration.toISOString(), transferId: last.transferId } } : {}),
    };
  }

  async release(transferId: string): Promise<void> {
    const held = await this.services.db.read((manager) => manager.findOneBy(LedgerTransfer, { transferId }));
    if (held && held.kind !== PAYMENT_KIND) return this.releaseLapsed(held);
    const record = await this.transfers.get(transferId);
    if (record.transferState === 'RECEIVED') {
      // Never prepared: no money is held and the payee never heard of it; only the payer waits for an answer.
      const expired = await this.transfers.abortUnprepared(record);
      if (!expired) return;
      this.log.warn({ transferId, payerFsp: record.payerFsp }, 'transfer never prepared aborted');
      return this.tell([record.payerFsp], transferId, expired);
    }
    // Decided meanwhile (by its workflow, or by another run of the sweep): told already.
    if (record.transferState !== 'RESERVED') return;
    const expired = errorInformation('transferExpired', `transfer ${transferId} expired and its reservation was released by the sweep`);
    await this.transfers.abort({ transferId, errorInformation: expired });
    this.log.warn({ transferId, payerFsp: record.payerFsp }, 'stale reservation released');
    // An item of a bulk is no conversation of its own: its DFSPs know only the bulk, whose results (GET) now show it 3303.
    // A bulk item refused because it named another transfer's ID (errorCode set) leaves that transfer its own callbacks.
    if (await this.services.db.read((manager) => manager.existsBy(BulkTransferItem, { transferId, errorCode: IsNull() }))) return;
    await this.tell([record.payerFsp, record.payeeFsp], transferId, expired);
  }

  /**
   * A reservation that is no payment (a funds out) ends no conversation and has nobody to tell: the ledger releases it
   * once its expiry has passed, and never before, however it came to be asked; a decided one is left as it is.
   */
  private async releaseLapsed(held: LedgerTransfer): Promise<void> {
    const { transferId, kind, expiresAt } = held;
    if (held.state !== 'RESERVED' || !expiresAt || !lapsed(expiresAt, Date.now())) return;
    const [released] = await this.services.ledger.resolveEach([{ transferId, outcome: 'ABORTED' }]);
    if (released.state === 'ABORTED') this.log.warn({ transferId, kind, expiresAt }, 'lapsed reservation released');
  }

  private async tell(recipients: string[], transferId: string, error: ErrorInformation): Promise<void> {
    for (const to of recipients) {
      await this.sender
        .send({
          to,
          endpointType: 'FSPIOP_CALLBACK_URL_TRANSFER_ERROR',
          params: { transferId },
          method: 'PUT',
          fromHub: { resource: 'transfers', version: '1.1' },
          body: { errorInformation: error },
        })
        .catch((err) => this.log.warn({ transferId, to, err: (err as Error).message }, 'sweep notification not delivered'));
    }
  }
}
