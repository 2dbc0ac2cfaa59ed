import type { Logger } from 'pino';
import { In, IsNull, LessThan } from 'typeorm';
import { errorInformation } from '../../../api/contracts/errors';
import type { CallbackSender } from '../delivery/callbacks';
import { LedgerTransfer } from '../db/entities';
import { BulkTransferItem, TransferRecord } from '../db/switchEntities';
import type { HubServices } from '../services';
import type { Transfers } from './transfers';

/** How long after its expiration a reservation may stand before the sweep releases it. */
export const SWEEP_GRACE_MS = 5 * 60_000;

/**
 * The backstop behind the transfer workflows' own expiry: a reservation whose transfer (or bulk item) expired long
 * ago and is still held (its workflow was terminated, or failed) is released and both sides are told 3303 (about
 * a bulk item, only through its bulk's GET), so a payer's Net Debit Cap headroom can never be lost for good.
 */
export class ReservationSweep {
  constructor(
    private readonly services: HubServices,
    private readonly transfers: Transfers,
    private readonly sender: CallbackSender,
    private readonly log: Logger,
  ) {}

  /** Transfers still reserved more than `graceMs` after their expiration (at most `limit` of them). */
  async stale(graceMs = SWEEP_GRACE_MS, limit = 500): Promise<string[]> {
    return this.services.db.read(async (manager) => {
      const reserved = await manager.find(LedgerTransfer, { where: { state: 'RESERVED', kind: 'TRANSFER' }, select: { transferId: true }, take: 5_000 });
      if (reserved.length === 0) return [];
      const expired = await manager.find(TransferRecord, {
        where: { transferId: In(reserved.map((r) => r.transferId)), expiration: LessThan(new Date(Date.now() - graceMs)) },
        select: { transferId: true },
        take: limit,
      });
      return expired.map((record) => record.transferId);
    });
  }

  async release(transferId: string): Promise<void> {
    const expired = errorInformation('transferExpired', `transfer ${transferId} expired and its reservation was released by the sweep`);
    await this.transfers.abort({ transferId, errorInformation: expired });
    const record = await this.transfers.get(transferId);
    this.log.warn({ transferId, payerFsp: record.payerFsp }, 'stale reservation released');
    // An item of a bulk is no conversation of its own: its DFSPs know only the bulk, whose results (GET) now show it 3303.
    // A bulk item refused because it named another transfer's ID (errorCode set) leaves that transfer its own callbacks.
    if (await this.services.db.read((manager) => manager.existsBy(BulkTransferItem, { transferId, errorCode: IsNull() }))) return;
    for (const to of [record.payerFsp, record.payeeFsp]) {
      await this.sender
        .send({
          to,
          endpointType: 'FSPIOP_CALLBACK_URL_TRANSFER_ERROR',
          params: { transferId },
          method: 'PUT',
          fromHub: { resource: 'transfers', version: '1.1' },
          body: { errorInformation: expired },
        })
        .catch((error) => this.log.warn({ transferId, to, err: (error as Error).message }, 'sweep notification not delivered'));
    }
  }
}
