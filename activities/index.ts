import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { ThirdpartyRequestsVerificationsPostRequest, TransfersIDPutResponse } from './shared/contracts/bodies';
import type { QuoteResource, Resource } from './shared/contracts/conversations';
import { HUB_REJECTION } from './shared/contracts/errors';
import type { FollowUp } from './shared/contracts/followUps';
import type { ReceivedCallback } from './shared/contracts/messages';
import { BulkTransferFollowUp } from './hub/conversations/bulkTransferFollowUp';
import { BulkParty, BulkTransfers } from './hub/conversations/bulkTransfers';
import { FollowUps } from './hub/conversations/followUps';
import { QuoteFollowUp } from './hub/conversations/quoteFollowUp';
import { RecordedAnswers } from './hub/conversations/recordedAnswers';
import { Quotes } from './hub/conversations/quotes';
import { ReservationSweep, SweepCursor } from './hub/conversations/reservationSweep';
import type { ParticipantChangeRequest } from './hub/settlement/accountSteps';
import type { BankConfirmationLine } from './hub/settlement/bankConfirmation';
import { TransactionRequestFollowUp } from './hub/conversations/transactionRequestFollowUp';
import { TransactionRequests } from './hub/conversations/transactionRequests';
import { TransferFollowUp } from './hub/conversations/transferFollowUp';
import { Transfers } from './hub/conversations/transfers';
import { AuthServiceAnswers } from './hub/auth/authServiceAnswers';
import { AuthService } from './hub/auth/authService';
import { Consents } from './hub/auth/consents';
import type { Delivery } from './hub/delivery/callbacks';
import { AccountLookup } from './hub/lookup/accountLookup';
import { databaseRefusal } from './hub/db/databaseErrors';
import type { ConsentRegistration } from './shared/contracts/consentRegistration';
import type { ApprovalDecision, Operator, PerformChange } from './shared/contracts/approvals';
import { Routing } from './hub/delivery/routing';
import { Correlations } from './hub/thirdparty/correlations';
import { ServiceProviders } from './hub/thirdparty/serviceProviders';
import type { Hub, HubServices } from './hub/hubServices';
import { HubError } from './shared/platform/hubError';
import { performedApprovalEntry } from './hub/audit/approvalEntry';

export type ActivityDependencies = Pick<Hub, 'services' | 'directory' | 'sender' | 'transactionRequests' | 'authService' | 'log'> & {
  /** How an approved change is performed (the admin routes' actions); without it, approving fails. */
  performChange?: PerformChange;
};

/** A message the hub sends on its own behalf: headers are made at send time, with FSPIOP-Source = hub. */
export interface HubDelivery extends Omit<Delivery, 'headers' | 'fromHub'> {
  resource: Resource;
  version: string;
}

/**
 * Business rejections become non-retryable failures carrying their ErrorInformation, so the workflow
 * decides what to tell whom; so does the database's refusal of what the step writes (a value longer than its
 * column), which every retry would meet again. Anything else (database down, network) is left to the retry policy.
 */
function rejecting<A extends unknown[], R>(activity: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args: A) => {
    try {
      return await activity(...args);
    } catch (error) {
      const rejection = error instanceof HubError ? error : databaseRefusal(error);
      if (rejection) {
        throw ApplicationFailure.create({ message: rejection.message, type: HUB_REJECTION, nonRetryable: true, details: [rejection.errorInformation] });
      }
      throw error;
    }
  };
}

/** How often a long step tells Temporal it is alive; its workflow's heartbeat timeout is a few of these. */
export const HEARTBEAT_EVERY_MS = 2_000;

/**
 * A step that may run for a while tells Temporal it is alive as it works, so a worker that dies in the middle of it is
 * noticed within the heartbeat timeout and the step tried again then, not at the end of its start-to-close timeout.
 */
function heartbeating<A extends unknown[], R>(activity: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args: A) => {
    const context = Context.current();
    const beat = setInterval(() => context.heartbeat(), HEARTBEAT_EVERY_MS);
    try {
      return await activity(...args);
    } finally {
      clearInterval(beat);
    }
  };
}

/**
 * The worker's activities, made from their dependencies so tests hand in real or test ones
 * without module mocking. Every activity is idempotent: a retry changes nothing twice.
 */
export function createActivities(dependencies: ActivityDependencies) {
  const { services, sender, performChange } = dependencies;
  const conversations = wireConversations(dependencies);
  return {
    ...deliveryActivities(services, sender, conversations.followUps),
    ...transferActivities(conversations),
    ...quoteActivities(conversations),
    ...bulkTransferActivities(conversations),
    ...authServiceActivities(conversations.authAnswers),
    ...transactionRequestActivities(conversations.transactionRequests),
    ...settlementActivities(services),
    ...notificationActivities(services),
    ...ledgerCheckActivities(services),
    ...approvalActivities(services, performChange),
  };
}

/** The conversations' records and the answers given from them, each made once and shared by the activities that use it. */
function wireConversations({ services, directory, sender, transactionRequests: policy, authService, log }: ActivityDependencies) {
  const transfers = new Transfers(services);
  const transferFollowUp = new TransferFollowUp(transfers, services.funds, sender);
  const quotes = new Quotes(services);
  const answers = new RecordedAnswers(sender);
  const quoteFollowUp = new QuoteFollowUp(quotes, sender, answers, log);
  const transactionRequests = new TransactionRequests(services, directory, policy);
  const routing = new Routing(directory, sender, log);
  const transactionRequestFollowUp = new TransactionRequestFollowUp(transactionRequests, routing, sender, answers);
  const bulkTransfers = new BulkTransfers(services);
  const bulkTransferFollowUp = new BulkTransferFollowUp(bulkTransfers, sender);
  const authAnswers = new AuthServiceAnswers(
    new AuthService(new Consents(services.db), new AccountLookup(services.db), authService),
    sender,
    authService.participantId,
    new Correlations(services.db),
    log,
  );
  const followUps = new FollowUps(
    transferFollowUp,
    quoteFollowUp,
    transactionRequestFollowUp,
    routing,
    bulkTransferFollowUp,
    authAnswers,
    new ServiceProviders(services.db, sender, authService),
    sender,
  );
  const sweep = new ReservationSweep(services, transfers, sender, log);
  return { transfers, transferFollowUp, quotes, quoteFollowUp, transactionRequests, bulkTransfers, bulkTransferFollowUp, authAnswers, followUps, sweep };
}

type Conversations = ReturnType<typeof wireConversations>;

/** The database's health, and the messages the hub forwards, sends or answers from a record. */
function deliveryActivities(services: HubServices, sender: Hub['sender'], followUps: FollowUps) {
  return {
    async checkDatabase(): Promise<string> {
      await services.db.ping();
      return services.db.isMysql ? 'mysql' : 'sqlite';
    },
    /** Forwards a participant's message (headers and body as they came) or sends a callback. */
    deliver: rejecting((delivery: Delivery) => sender.send(delivery)),
    /** Sends a message of the hub's own (an error or a notification), dated now. */
    deliverFromHub: rejecting(({ resource, version, ...delivery }: HubDelivery) => sender.send({ ...delivery, fromHub: { resource, version } })),
    /** An answer from a conversation's record that the gateway handed to a `followUp` workflow. */
    answerFollowUp: rejecting((followUp: FollowUp) => followUps.answer(followUp)),
  };
}

/** A transfer's ledger steps, the answers from its record, and the sweep of reservations left behind. */
function transferActivities({ transfers, transferFollowUp, sweep }: Conversations) {
  return {
    prepareTransfer: rejecting(transfers.prepare.bind(transfers)),
    commitTransfer: rejecting(transfers.commit.bind(transfers)),
    abortTransfer: rejecting(transfers.abort.bind(transfers)),
    /** A payee's PUT that reached the workflow after the transfer was decided: answered as if it came later still. */
    lateTransferCallback: rejecting((input: { transferId: string; callback: ReceivedCallback<TransfersIDPutResponse>; version: string }) =>
      transferFollowUp.lateFulfil(input.transferId, input.callback, input.version),
    ),
    /** A POST for a transfer decided so long ago that its workflow history is gone: the duplicate rule, from the record. */
    repeatedTransfer: rejecting((input: { transferId: string; requestHash: string; requester: string; version: string }) =>
      transferFollowUp.repeated(input.transferId, input.requestHash, input.requester, input.version),
    ),
    staleReservations: (after?: SweepCursor) => sweep.stale({ after }),
    releaseStaleReservation: rejecting((transferId: string) => sweep.release(transferId)),
  };
}

function quoteActivities({ quotes, quoteFollowUp }: Conversations) {
  return {
    /** A POST for a quote or bulk quote answered so long ago that its workflow history is gone: the duplicate rule, from the record. */
    repeatedQuote: rejecting((input: { resource: QuoteResource; id: string; requestHash: string; requester: string; version: string }) =>
      quoteFollowUp.repeated(input.resource, input.id, input.requestHash, input.requester, input.version),
    ),
    registerQuote: rejecting(quotes.register.bind(quotes)),
    completeQuote: rejecting(quotes.complete.bind(quotes)),
  };
}

function bulkTransferActivities({ bulkTransfers, bulkTransferFollowUp }: Conversations) {
  return {
    prepareBulkTransfer: rejecting(bulkTransfers.prepare.bind(bulkTransfers)),
    fulfilBulkTransfer: rejecting(bulkTransfers.fulfil.bind(bulkTransfers)),
    releaseBulkTransfer: rejecting(bulkTransfers.releaseOpen.bind(bulkTransfers)),
    completeBulkTransfer: rejecting(bulkTransfers.complete.bind(bulkTransfers)),
    /** The hub's POST /bulkTransfers to the payee, made from the record: only the items the hub accepted. */
    forwardBulkTransfer: rejecting((input: { bulkTransferId: string; version: string }) => bulkTransferFollowUp.forward(input.bulkTransferId, input.version)),
    /** PUT /bulkTransfers/{ID} with the per-item results, to the payer (every item) or the payee (its items). */
    deliverBulkTransferResults: rejecting((input: { bulkTransferId: string; party: BulkParty; version: string }) =>
      bulkTransferFollowUp.results(input.bulkTransferId, input.party, input.version),
    ),
  };
}

/** The Auth service's steps (Document 1): each checks, records and answers as the Auth service. */
function authServiceActivities(authAnswers: AuthServiceAnswers) {
  return {
    answerConsentRegistration: rejecting((input: ConsentRegistration) => authAnswers.registration(input)),
    answerVerification: rejecting((input: { request: ThirdpartyRequestsVerificationsPostRequest; requester: string }) =>
      authAnswers.verification(input.request, input.requester),
    ),
    answerConsentRevocation: rejecting((input: { consentId: string; requester: string }) => authAnswers.revocation(input.consentId, input.requester)),
  };
}

function transactionRequestActivities(transactionRequests: TransactionRequests) {
  return {
    registerTransactionRequest: rejecting(transactionRequests.register.bind(transactionRequests)),
    /** Records the answer a transaction request's requester got. */
    answerTransactionRequest: rejecting(transactionRequests.answered.bind(transactionRequests)),
  };
}

/** The settlement windows' and settlements' steps. */
function settlementActivities(services: HubServices) {
  return {
    /** Closes a settlement window and opens the next (settlementWindow's one step). */
    closeSettlementWindow: rejecting((input: { settlementWindowId: number; reason: string }) =>
      services.settlementWindows.close(input.settlementWindowId, input.reason),
    ),
    /** The window open now, for the operator's closing schedule. */
    openSettlementWindow: () => services.settlementWindows.open(),
    /** Moves a settlement's accounts a step, with their ledger effect (settlement's PUT). */
    changeSettlement: heartbeating(
      rejecting((input: { settlementId: number; participants: ParticipantChangeRequest[] }) =>
        services.settlements.change(input.settlementId, input.participants),
      ),
    ),
    /** Settles a settlement against the settlement bank's confirmation, in one ledger step. */
    finaliseSettlement: heartbeating(
      rejecting((input: { settlementId: number; lines: BankConfirmationLine[] }) => services.settlements.finalise(input.settlementId, input.lines)),
    ),
    abortSettlement: heartbeating(
      rejecting((input: { settlementId: number; reason: string; externalReference?: string }) =>
        services.settlements.abort(input.settlementId, input.reason, input.externalReference),
      ),
    ),
    /** A settlement as it stands: its state and windows, for its workflow. */
    settlementState: heartbeating(
      rejecting(async (settlementId: number) => {
        const { state, settlementWindows } = await services.settlements.get(settlementId);
        return { state, windows: settlementWindows.map(({ settlementWindowId, state }) => ({ settlementWindowId, state })) };
      }),
    ),
  };
}

/** The participants' e-mails due, and one try at one (a refusal is counted on the e-mail; a server out of reach is thrown). */
function notificationActivities(services: HubServices) {
  return {
    pendingNotifications: () => services.notifications.pending(),
    sendNotification: (id: number) => services.notifications.send(id),
  };
}

/**
 * One check of the ledger's invariants (ledger/ledgerChecks.ts), which keeps its outcome and raises its alarm: the
 * workflow gets a summary, the violations stay in the database.
 */
function ledgerCheckActivities(services: HubServices) {
  return {
    checkLedgerNow: heartbeating(async () => {
      const { holds, full, checkedFrom, checkedTo, violations } = await services.ledgerChecks.run();
      return { holds, full, checkedFrom, checkedTo, violations: violations.length };
    }),
  };
}

/** Four eyes: a decision on a held change, or its expiry, recorded; each answers the approval as it now stands. */
function approvalActivities(services: HubServices, performChange: PerformChange | undefined) {
  return {
    recordApprovalDecision: (input: { approvalId: string; decision: ApprovalDecision; reason?: string; decidedBy: Operator }) =>
      services.approvals.decided(input.approvalId, input.decision, input.decidedBy, input.reason),
    recordApprovalExpiry: (approvalId: string) => services.approvals.expired(approvalId),
    /**
     * Performs an approved change and records its outcome (the action's own refusal included), answering the approval
     * with requester, approver, action, summary and outcome: what an audit entry needs. An attempt retried once the
     * outcome is recorded performs nothing. One retried after the change was made but before its outcome was recorded
     * performs it again, which the action's own idempotency makes harmless (a funds movement by its transferId, a
     * limit or flag set to the value it has); a create then answers "already exists", which is recorded. The audit trail
     * gets the performance as an entry of the approver's, once.
     */
    performApproval: rejecting(async (approvalId: string) => {
      if (!performChange) throw new HubError('internalServerError', 'this worker was not given the admin actions to perform approved changes');
      const held = await services.approvals.toPerform(approvalId);
      const approval = held
        ? await services.approvals.performed(approvalId, await performChange(held.action, held.input))
        : await services.approvals.current(approvalId);
      // Appended once by its reference, also when a retry finds the outcome already recorded but not yet its entry.
      if (approval.outcome) await services.audit.append(performedApprovalEntry(approval));
      return approval;
    }),
  };
}

export type HubActivities = ReturnType<typeof createActivities>;
