/**
 * Four eyes (docs/security.md): a change the hub holds for a second person. Shared by the gateway that holds and
 * decides, the approval workflow that waits, and the activities that record and perform, so it imports nothing.
 */
import type { ChangeGroup, CredentialKind } from './operatorRoles';
import type { ErrorInformation } from './errors';

/**
 * PENDING until someone decides or it expires; APPROVED once approved (its `outcome` says what performing it did);
 * REJECTED or EXPIRED when nothing was done.
 */
export const APPROVAL_STATES = ['PENDING', 'APPROVED', 'REJECTED', 'EXPIRED'] as const;
export type ApprovalState = (typeof APPROVAL_STATES)[number];

export type ApprovalDecision = 'APPROVED' | 'REJECTED';

/** Who made or decided a held request, as authentication found them. */
export interface Operator {
  name: string;
  credential: CredentialKind;
}

/** An admin route's answer, as a direct call would have got it. */
export interface ActionAnswer {
  status: number;
  body: unknown;
}

/**
 * What performing an approved change did: the answer a direct call would have got, or the action's own refusal (an
 * unknown participant, a funds out beyond the balance) with its FSPIOP error.
 */
export type ApprovalOutcome = { performed: true; answer: ActionAnswer } | { performed: false; status: number; errorInformation: ErrorInformation };

/**
 * Performs a held change by its action's name, as the route would have: the worker is handed one (worker/), so the
 * activities need not know the admin routes' code.
 */
export type PerformChange = (action: string, input: unknown) => Promise<ApprovalOutcome>;

/** A request the hub holds: the named admin action and its validated input, as the route read them. */
export interface HeldChange {
  action: string;
  input: unknown;
  changeGroup: ChangeGroup;
  /** What the request was, for the people deciding: `POST /participants/dfsp1/accounts/3`. */
  summary: string;
}

/** What the approval workflow needs to judge a decision without a database: who asked, for which group, and until when. */
export interface ApprovalTerms {
  approvalId: string;
  changeGroup: ChangeGroup;
  requestedBy: Operator;
  ttlMs: number;
}

/** A decision, as the gateway hands it to the approval's workflow. */
export interface DecisionRequest {
  decision: ApprovalDecision;
  reason?: string;
  decidedBy: Operator & { roles: string[] };
}

/** An approval as GET /approvals answers it. */
export interface ApprovalView {
  approvalId: string;
  state: ApprovalState;
  changeGroup: ChangeGroup;
  action: string;
  summary: string;
  input: unknown;
  requestedBy: Operator;
  requestedDate: string;
  expiresDate: string;
  decidedBy?: Operator;
  decidedDate?: string;
  reason?: string;
  outcome?: ApprovalOutcome;
}

/**
 * Why the approval workflow refused a decision: the decider is the requester, or may not make this kind of change
 * (403); or the approval is no longer pending (400).
 */
export const APPROVAL_REFUSED = 'ApprovalRefused';
