import { EntityManager, In } from 'typeorm';
import type { Database } from '../db/database';
import { LedgerTransfer, Participant, ParticipantAccount, ParticipantLimit } from '../db/entities';
import { Decimal, formatAmount } from '../db/money';
import { HubError } from '../../shared/platform/hubError';
import { findAccountByType, findParticipant } from '../db/accounts';
import type { Ledger, LedgerFollowers } from './ledger';
import { NET_DEBIT_CAP, openingPosition } from './rules';

/** The ledger movement of a position account's opening position: one per account, ever. */
const openingId = (positionAccountId: number) => `initialPosition/${positionAccountId}`;

export interface LimitView {
  name: string;
  currency: string;
  limit: { type: string; value: string; alarmPercentage: string };
}

export interface PositionView {
  currency: string;
  value: string;
  changedDate: Date;
}

export interface LimitFilter {
  currency?: string;
  type?: string;
}

/**
 * An account's value as central-ledger reports it, for positions and accounts alike: there a reservation (a
 * prepared transfer, a funds-out reserve) moves the value at once, so the figure is the posted balance plus what
 * is reserved (Document 3: "transfers accepted for processing but not yet cleared where the DFSP is debtor").
 */
export function reportedValue(account: Pick<ParticipantAccount, 'value' | 'reservedValue'>): string {
  return formatAmount(new Decimal(account.value).plus(account.reservedValue));
}

/** Net Debit Caps on position accounts, and positions as Document 3 reports them. */
export class Limits {
  constructor(
    private readonly db: Database,
    private readonly ledger: Ledger,
    private readonly hubName: string,
    private readonly followers: LedgerFollowers,
  ) {}

  /**
   * Sets a new participant's first Net Debit Cap and, if given, its opening position. The opening
   * position is a ledger movement against the hub's multilateral settlement account, so positions still
   * sum to zero.
   */
  async initialPositionAndLimits(name: string, request: { currency: string; limit: { type: string; value: string }; initialPosition?: string }): Promise<void> {
    if (request.limit.type !== NET_DEBIT_CAP) throw new HubError('validationError', `Unsupported limit type ${request.limit.type}`);
    const { position, hubSettlement } = await this.db.transaction(async (manager) => {
      const participant = await findParticipant(manager, name);
      const position = await findAccountByType(manager, participant.participantId, request.currency, 'POSITION');
      const hasLimit = await manager.existsBy(ParticipantLimit, { accountId: position.id, type: NET_DEBIT_CAP });
      // A retry after the limit was stored but before the opening position was posted finishes the job;
      // anything else that finds the limit set is a second initialisation, which central-ledger refuses.
      const openingPending =
        !new Decimal(request.initialPosition ?? 0).isZero() && !(await manager.existsBy(LedgerTransfer, { transferId: openingId(position.id) }));
      if (hasLimit && !openingPending) throw new HubError('clientError', `Participant ${name} already has limits in ${request.currency}`);
      if (!hasLimit) {
        await manager.insert(ParticipantLimit, {
          accountId: position.id,
          type: NET_DEBIT_CAP,
          value: formatAmount(request.limit.value),
          alarmPercentage: '10',
          changedDate: new Date(),
        });
      }
      const hub = await findParticipant(manager, this.hubName);
      const hubSettlement = await findAccountByType(manager, hub.participantId, request.currency, 'HUB_MULTILATERAL_SETTLEMENT');
      return { position, hubSettlement };
    });
    const opening = openingPosition(request.initialPosition ?? 0, position.id, hubSettlement.id);
    if (!opening) return;
    await this.ledger.post({
      transferId: openingId(position.id),
      kind: 'INITIAL_POSITION',
      ...opening,
      currency: request.currency,
      reason: 'initial position',
    });
  }

  all(filter: LimitFilter): Promise<LimitView[]> {
    return this.db.read((manager) => limitViews(manager, undefined, filter));
  }

  forParticipant(name: string, filter: LimitFilter): Promise<LimitView[]> {
    return this.db.read(async (manager) => limitViews(manager, await findParticipant(manager, name), filter));
  }

  async adjust(name: string, currency: string, limit: { type: string; value: string; alarmPercentage: string }): Promise<LimitView> {
    if (limit.type !== NET_DEBIT_CAP) throw new HubError('validationError', `Unsupported limit type ${limit.type}`);
    return this.db.transaction(async (manager) => {
      const participant = await findParticipant(manager, name);
      const position = await findAccountByType(manager, participant.participantId, currency, 'POSITION');
      const existing = await manager.findOneBy(ParticipantLimit, { accountId: position.id, type: NET_DEBIT_CAP });
      if (!existing) throw new HubError('idNotFound', `Participant ${name} has no ${NET_DEBIT_CAP} in ${currency}; set initialPositionAndLimits first`);
      const values = { value: formatAmount(limit.value), alarmPercentage: formatAmount(limit.alarmPercentage), changedDate: new Date() };
      await manager.update(ParticipantLimit, { id: existing.id }, values);
      await this.followers.limitAdjusted(manager, { participantId: participant.participantId, currency, netDebitCap: values.value });
      return { name, currency, limit: { type: NET_DEBIT_CAP, value: values.value, alarmPercentage: values.alarmPercentage } };
    });
  }

  /** Every participant's positions (the hub's own accounts are none), for an operator's overview. */
  allPositions(currency?: string): Promise<Array<PositionView & { name: string }>> {
    return this.db.read(async (manager) => {
      const accounts = await manager.find(ParticipantAccount, {
        where: { ledgerAccountType: 'POSITION', ...(currency ? { currency } : {}) },
        order: { id: 'ASC' },
      });
      const names = new Map((await manager.find(Participant)).map((participant) => [participant.participantId, participant.name]));
      return accounts.map((account) => ({
        name: names.get(account.participantId) ?? String(account.participantId),
        currency: account.currency,
        value: reportedValue(account),
        changedDate: account.changedDate,
      }));
    });
  }

  /** A participant's position per currency, reservations included (`reportedValue`). */
  positions(name: string, currency?: string): Promise<PositionView[]> {
    return this.db.read(async (manager) => {
      const participant = await findParticipant(manager, name);
      const accounts = await manager.find(ParticipantAccount, {
        where: { participantId: participant.participantId, ledgerAccountType: 'POSITION', ...(currency ? { currency } : {}) },
        order: { id: 'ASC' },
      });
      return accounts.map((account) => ({
        currency: account.currency,
        value: reportedValue(account),
        changedDate: account.changedDate,
      }));
    });
  }
}

async function limitViews(manager: EntityManager, participant: Participant | undefined, filter: LimitFilter): Promise<LimitView[]> {
  const accounts = await manager.find(ParticipantAccount, {
    where: {
      ledgerAccountType: 'POSITION',
      ...(participant ? { participantId: participant.participantId } : {}),
      ...(filter.currency ? { currency: filter.currency } : {}),
    },
  });
  if (accounts.length === 0) return [];
  const limits = await manager.find(ParticipantLimit, {
    where: { accountId: In(accounts.map((account) => account.id)), ...(filter.type ? { type: filter.type } : {}) },
    order: { id: 'ASC' },
  });
  const names = new Map(
    (await manager.findBy(Participant, { participantId: In([...new Set(accounts.map((a) => a.participantId))]) })).map((p) => [p.participantId, p.name]),
  );
  const byId = new Map(accounts.map((account) => [account.id, account]));
  return limits.map((limit) => {
    const account = byId.get(limit.accountId)!;
    return {
      name: names.get(account.participantId)!,
      currency: account.currency,
      limit: { type: limit.type, value: limit.value, alarmPercentage: limit.alarmPercentage },
    };
  });
}
