import { EntityManager, In } from 'typeorm';
import type { Database } from '../db/database';
import { LedgerTransfer, ParticipantAccount, SettlementModel } from '../db/entities';
import { Decimal } from '../db/money';
import {
  Settlement,
  SettlementParticipantAccount,
  SettlementSettlementWindow,
  SettlementWindow,
  SettlementWindowContent,
  type SettlementState,
} from '../db/settlementEntities';
import type { Ledger } from '../ledger/ledger';
import { reportedValue } from '../ledger/limits';
import { positionChangeNotice } from '../notifications/notices';
import { notifyIn } from '../notifications/notifications';
import { HubError } from '../../shared/platform/hubError';
import { hubAccounts, movementIdOf, resetOf } from './positionResets';
import { accountView, settlementOf, settlementView, type AccountView, type SettlementView } from './settlementViews';
import { abortProblem, accountChange, settlementStateAfter } from './settlementStates';

export interface AccountChangeRequest {
  id: number;
  state: SettlementState;
  reason?: string;
  externalReference?: string;
}

export interface ParticipantChangeRequest {
  id: number;
  accounts: AccountChangeRequest[];
}

/** What the steps work with: the database, the ledger that moves the resets, and the hub's own participant. */
export interface StepContext {
  db: Database;
  ledger: Ledger;
  hubName: string;
}

type Move = { account: SettlementParticipantAccount; change: AccountChangeRequest };

const refusedAccount = (description: string) => ({ errorCode: '3000', errorDescription: `Generic client error - ${description}` });

/**
 * Moves participants' accounts a step, each as central-settlement allows (accountChange): a refused one carries its
 * error in the answer, the others move, and the settlement follows once none is left behind. Accounts reaching
 * PS_TRANSFERS_RESERVED reserve their reset, those reaching PS_TRANSFERS_COMMITTED commit it, in the same
 * transaction as their new state. The answer holds the accounts asked about.
 */
export async function changeAccounts(context: StepContext, settlementId: number, participants: ParticipantChangeRequest[]): Promise<SettlementView> {
  const { db, ledger, hubName } = context;
  const { settlement, model, accounts } = await db.read(async (manager) => {
    const settlement = await settlementOf(manager, settlementId);
    return {
      settlement,
      model: (await manager.findOneBy(SettlementModel, { settlementModelId: settlement.settlementModelId }))!,
      accounts: await manager.findBy(SettlementParticipantAccount, { settlementId }),
    };
  });
  const byId = new Map(accounts.map((account) => [account.accountId, account]));
  const refused = new Map<number, AccountView['errorInformation']>();
  const moves: Move[] = [];
  const seen = new Set<number>();
  for (const participant of participants) {
    for (const change of participant.accounts) {
      const account = byId.get(change.id);
      if (!account) refused.set(change.id, refusedAccount('Account not found'));
      else if (account.participantId !== participant.id) refused.set(change.id, refusedAccount('Participant and account mismatch'));
      else if (seen.has(change.id)) refused.set(change.id, refusedAccount('Account already processed once'));
      else if (accountChange(settlement.state, account.state, change.state) === 'refused') refused.set(change.id, refusedAccount('State change not allowed'));
      else moves.push({ account, change });
      seen.add(change.id);
    }
  }
  const apply = (manager: EntityManager) => applyMoves(context, manager, settlement, moves, model.autoPositionReset);
  const moving = moves.filter(({ account, change }) => change.state !== account.state && !new Decimal(account.netAmount).isZero());
  if (model.autoPositionReset && moving.length > 0 && settlement.state === 'PS_TRANSFERS_RECORDED') {
    const hub = await db.read((manager) => hubAccounts(manager, hubName, [...new Set(moving.map(({ account }) => account.currency))]));
    await ledger.reserveEach(
      moving.map(({ account }) => resetOf(account, hub.get(account.currency)!)),
      { alongside: apply },
    );
  } else if (model.autoPositionReset && moving.length > 0 && settlement.state === 'PS_TRANSFERS_RESERVED') {
    await ledger.resolveEach(
      moving.map(({ account }) => ({ transferId: movementIdOf(settlementId, account.accountId), outcome: 'COMMITTED' as const })),
      apply,
    );
  } else {
    await db.transaction(apply);
  }
  const view = await settlementView(db, settlementId);
  const asked = new Set(participants.flatMap((participant) => participant.accounts.map((account) => account.id)));
  return {
    ...view,
    participants: [
      ...view.participants
        .map((participant) => ({ ...participant, accounts: participant.accounts.filter((account) => asked.has(account.id) && !refused.has(account.id)) }))
        .filter((participant) => participant.accounts.length > 0),
      ...[...refused].map(([id, errorInformation]) => {
        const account = byId.get(id);
        return { id: account?.participantId ?? 0, accounts: [{ ...(account ? accountView(account) : { id }), errorInformation } as AccountView] };
      }),
    ],
  };
}

/**
 * The accounts' new states, and the settlement's (with its windows' once it is SETTLED). Each is written only while it
 * stands as the step read it (compare-and-set): a step that read before another changed the settlement writes nothing
 * and is decided again (StaleStep), so a stalled retry neither moves an account back nor queues an e-mail twice.
 */
async function applyMoves(context: StepContext, manager: EntityManager, settlement: Settlement, moves: Move[], resets: boolean): Promise<void> {
  const now = new Date();
  // Taken first: two changes of one settlement wait for each other here.
  await settlementStillAt(manager, settlement, { changedDate: now });
  for (const { account, change } of moves) {
    await accountStillAt(manager, account, {
      state: change.state,
      reason: change.reason ?? account.reason,
      externalReference: change.externalReference ?? account.externalReference,
      changedDate: now,
    });
    if (change.state === 'PS_TRANSFERS_COMMITTED' && account.state !== change.state && resets && !new Decimal(account.netAmount).isZero()) {
      const position = await manager.findOneByOrFail(ParticipantAccount, { id: account.accountId });
      await notifyIn(manager, context.hubName, account.participantId, (dfsp) => positionChangeNotice(dfsp, account.currency, reportedValue(position)));
    }
  }
  // A locking read on MySQL: the step's snapshot may be older than the settlement's lock (the ledger read first).
  const states = await manager.find(SettlementParticipantAccount, {
    where: { settlementId: settlement.settlementId },
    select: { id: true, state: true },
    ...(context.db.isMysql ? { lock: { mode: 'pessimistic_write' as const } } : {}),
  });
  const next = settlementStateAfter(
    settlement.state,
    states.map((account) => account.state),
  );
  if (next === settlement.state) return;
  const reason = next === 'SETTLED' ? 'All settlement accounts are SETTLED' : `All settlement accounts are ${next}`;
  await settlementStillAt(manager, settlement, { state: next, reason, changedDate: now });
  if (next === 'SETTLED') await windowsFollow(manager, settlement.settlementId, 'SETTLED', now);
}

/**
 * Aborts a settlement that has committed nothing (abortProblem): reservations are released, accounts and the
 * settlement turn ABORTED, and its windows' content is freed for another settlement (ABORTED). Written only while the
 * settlement and its accounts stand as read (compare-and-set): an abort decided before a commit is decided again.
 */
export async function abortSettlement(
  { db, ledger }: StepContext,
  settlementId: number,
  reason: string,
  externalReference?: string,
): Promise<{ id: number; state: 'ABORTED'; reason: string }> {
  const { settlement, accounts } = await db.read(async (manager) => ({
    settlement: await settlementOf(manager, settlementId),
    accounts: await manager.findBy(SettlementParticipantAccount, { settlementId }),
  }));
  const problem = abortProblem(
    settlementId,
    settlement.state,
    accounts.map((account) => account.state),
  );
  if (problem) throw new HubError('validationError', problem);
  const aborting = async (manager: EntityManager) => {
    const now = new Date();
    await settlementStillAt(manager, settlement, { state: 'ABORTED', reason, changedDate: now });
    for (const account of accounts) {
      await accountStillAt(manager, account, { state: 'ABORTED', reason, changedDate: now, ...(externalReference ? { externalReference } : {}) });
    }
    if (settlement.state !== 'ABORTED') await windowsFollow(manager, settlementId, 'ABORTED', now);
  };
  const reserved = await db.read((manager) =>
    manager.findBy(LedgerTransfer, {
      transferId: In(accounts.map((account) => movementIdOf(settlementId, account.accountId))),
      state: 'RESERVED',
    }),
  );
  if (reserved.length > 0) {
    await ledger.resolveEach(
      reserved.map(({ transferId }) => ({ transferId, outcome: 'ABORTED' as const })),
      aborting,
    );
  } else {
    await db.transaction(aborting);
  }
  return { id: settlementId, state: 'ABORTED', reason };
}

/**
 * A settled settlement's content is SETTLED, and each window once all its content is; an aborted one's content is
 * ABORTED and free for another settlement, and its windows ABORTED.
 */
export async function windowsFollow(manager: EntityManager, settlementId: number, state: 'SETTLED' | 'ABORTED', now: Date): Promise<void> {
  const content = await manager.findBy(SettlementWindowContent, { settlementId });
  await manager.update(SettlementWindowContent, { settlementId }, { state, changedDate: now, ...(state === 'ABORTED' ? { settlementId: null } : {}) });
  const windowIds = (await manager.findBy(SettlementSettlementWindow, { settlementId })).map((link) => link.settlementWindowId);
  for (const settlementWindowId of new Set([...windowIds, ...content.map((row) => row.settlementWindowId)])) {
    const unsettled = await manager.countBy(SettlementWindowContent, { settlementWindowId, state: In(['CLOSED', 'PENDING_SETTLEMENT', 'ABORTED']) });
    if (state === 'SETTLED' && unsettled > 0) continue;
    await manager.update(SettlementWindow, { settlementWindowId }, { state, changedDate: now });
  }
}

/** A step that read the settlement before another step changed it: it wrote nothing, and its retry decides again. */
export class StaleStep extends Error {
  constructor(settlementId: number) {
    super(`settlement ${settlementId} changed while this step ran: it is decided again from where it stands`);
    this.name = 'StaleStep';
  }
}

/** Writes the settlement's change if it is still in the state the step read; on MySQL its row stays locked to the end. */
export async function settlementStillAt(manager: EntityManager, settlement: Settlement, change: Partial<Settlement>): Promise<void> {
  const { affected } = await manager.update(Settlement, { settlementId: settlement.settlementId, state: settlement.state }, change);
  if (affected !== 1) throw new StaleStep(settlement.settlementId);
}

/** Writes the account's change if it is still in the state the step read. */
export async function accountStillAt(
  manager: EntityManager,
  account: SettlementParticipantAccount,
  change: Partial<SettlementParticipantAccount>,
): Promise<void> {
  const { affected } = await manager.update(SettlementParticipantAccount, { id: account.id, state: account.state }, change);
  if (affected !== 1) throw new StaleStep(account.settlementId);
}
