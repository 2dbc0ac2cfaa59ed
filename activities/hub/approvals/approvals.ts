import crypto from 'node:crypto';
import { IsNull, QueryFailedError } from 'typeorm';
import type { ApprovalDecision, ApprovalOutcome, ApprovalState, ApprovalView, HeldChange, Operator } from '../../shared/contracts/approvals';
import type { ChangeGroup, CredentialKind } from '../../shared/contracts/operatorRoles';
import { ApprovalRecord } from '../db/approvalEntities';
import type { Database } from '../db/database';
import { HubError } from '../../shared/platform/hubError';

/**
 * How many changes one person may have waiting at once. Each is a row and a workflow with a timer for APPROVAL_TTL, so
 * a script looping on a held route would otherwise grow both without bound; a person with this many waiting has
 * more to decide than anyone will read.
 */
export const MAX_PENDING_PER_REQUESTER = 100;

/** How many approvals one GET /approvals answers, newest first. */
const LIST_LIMIT = 200;

const pendingKeyOf = (requester: string, { action, input }: HeldChange) =>
  crypto
    .createHash('sha256')
    .update(JSON.stringify([requester, action, input]))
    .digest('hex');

const isDuplicate = (error: unknown) => error instanceof QueryFailedError && /duplicate entry|unique constraint/i.test(error.message);

function viewOf(record: ApprovalRecord): ApprovalView {
  return {
    approvalId: record.approvalId,
    state: record.state as ApprovalState,
    changeGroup: record.changeGroup as ChangeGroup,
    action: record.action,
    summary: record.summary,
    input: JSON.parse(record.input),
    requestedBy: { name: record.requestedBy, credential: record.requestedCredential as CredentialKind },
    requestedDate: record.requestedDate.toISOString(),
    expiresDate: record.expiresDate.toISOString(),
    ...(record.decidedBy && { decidedBy: { name: record.decidedBy, credential: record.decidedCredential as CredentialKind } }),
    ...(record.decidedDate && { decidedDate: record.decidedDate.toISOString() }),
    ...(record.reason !== null && { reason: record.reason }),
    ...(record.outcome !== null && { outcome: JSON.parse(record.outcome) as ApprovalOutcome }),
  };
}

/**
 * The record of held changes. The gateway holds a request here before it answers 202 (so a list read straight after
 * shows it, whatever Temporal's visibility lags); the approval's workflow writes what became of it, each write
 * conditional on the state it moves from, so a retried step changes nothing twice.
 */
export class Approvals {
  constructor(private readonly db: Database) {}

  /**
   * Holds `change` for a second person: a new PENDING approval, or the one already waiting for the same request by the
   * same person (a repeated click holds nothing twice). `created` says which.
   */
  async hold(change: HeldChange, requestedBy: Operator, ttlMs: number): Promise<{ approvalId: string; created: boolean }> {
    const pendingKey = pendingKeyOf(requestedBy.name, change);
    const repeated = () => this.db.read((manager) => manager.findOneBy(ApprovalRecord, { pendingKey }));
    const held = await repeated();
    if (held) return { approvalId: held.approvalId, created: false };
    const approvalId = crypto.randomUUID();
    try {
      await this.db.transaction(async (manager) => {
        const waiting = await manager.countBy(ApprovalRecord, { requestedBy: requestedBy.name, state: 'PENDING' });
        if (waiting >= MAX_PENDING_PER_REQUESTER) {
          throw new HubError('clientError', `${requestedBy.name} has ${waiting} changes waiting for a second person: have some decided first`);
        }
        const now = new Date();
        await manager.insert(ApprovalRecord, {
          approvalId,
          state: 'PENDING',
          changeGroup: change.changeGroup,
          action: change.action,
          summary: change.summary.slice(0, 300),
          input: JSON.stringify(change.input),
          pendingKey,
          requestedBy: requestedBy.name,
          requestedCredential: requestedBy.credential,
          requestedDate: now,
          expiresDate: new Date(now.getTime() + ttlMs),
          decidedBy: null,
          decidedCredential: null,
          decidedDate: null,
          reason: null,
          outcome: null,
        });
      });
    } catch (error) {
      // The same request, held a moment ago by a click that raced this one.
      const raced = isDuplicate(error) ? await repeated() : undefined;
      if (raced) return { approvalId: raced.approvalId, created: false };
      throw error;
    }
    return { approvalId, created: true };
  }

  /** Takes back a hold whose workflow could not be started, so it does not sit PENDING with nothing to decide it. */
  async release(approvalId: string): Promise<void> {
    await this.db.transaction((manager) => manager.delete(ApprovalRecord, { approvalId, state: 'PENDING' }));
  }

  get(approvalId: string): Promise<ApprovalView | undefined> {
    return this.db.read(async (manager) => {
      const record = await manager.findOneBy(ApprovalRecord, { approvalId });
      return record ? viewOf(record) : undefined;
    });
  }

  /** The latest approvals (in `state`, if given), newest first. */
  list(state?: ApprovalState): Promise<ApprovalView[]> {
    return this.db.read(async (manager) => {
      const records = await manager.find(ApprovalRecord, {
        where: state ? { state } : {},
        order: { requestedDate: 'DESC' },
        take: LIST_LIMIT,
      });
      return records.map(viewOf);
    });
  }

  /**
   * The action and input an approved change holds, for performing it; none once its outcome is recorded, so an
   * attempt retried after that point performs nothing again.
   */
  async toPerform(approvalId: string): Promise<{ action: string; input: unknown } | undefined> {
    const record = await this.db.read((manager) => manager.findOneBy(ApprovalRecord, { approvalId }));
    if (!record) throw new HubError('idNotFound', `approval ${approvalId} is not known`);
    if (record.state !== 'APPROVED') throw new HubError('validationError', `approval ${approvalId} is ${record.state}, not APPROVED`);
    return record.outcome === null ? { action: record.action, input: JSON.parse(record.input) } : undefined;
  }

  /** Records a decision on a PENDING approval (a retry finds it decided and changes nothing). */
  async decided(approvalId: string, decision: ApprovalDecision, decidedBy: Operator, reason: string | undefined): Promise<ApprovalView> {
    await this.db.transaction((manager) =>
      manager.update(
        ApprovalRecord,
        { approvalId, state: 'PENDING' },
        {
          state: decision,
          pendingKey: null,
          decidedBy: decidedBy.name,
          decidedCredential: decidedBy.credential,
          decidedDate: new Date(),
          reason: reason ?? null,
        },
      ),
    );
    return this.current(approvalId);
  }

  /** Records that no one decided in time. */
  async expired(approvalId: string): Promise<ApprovalView> {
    await this.db.transaction((manager) =>
      manager.update(ApprovalRecord, { approvalId, state: 'PENDING' }, { state: 'EXPIRED', pendingKey: null, reason: 'no one decided before it expired' }),
    );
    return this.current(approvalId);
  }

  /** Records what performing an approved change did, and answers the approval as it now stands. */
  async performed(approvalId: string, outcome: ApprovalOutcome): Promise<ApprovalView> {
    // The first outcome stands: a retry that performed the change again (a create then answering "already exists") keeps it.
    await this.db.transaction((manager) =>
      manager.update(ApprovalRecord, { approvalId, state: 'APPROVED', outcome: IsNull() }, { outcome: JSON.stringify(outcome) }),
    );
    return this.current(approvalId);
  }

  /** The approval as it stands. */

  async current(approvalId: string): Promise<ApprovalView> {
    const view = await this.get(approvalId);
    if (!view) throw new HubError('idNotFound', `approval ${approvalId} is not known`);
    return view;
  }
}
