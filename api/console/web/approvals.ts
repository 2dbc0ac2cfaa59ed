import type { ApprovalOutcome, ApprovalView } from '../../../activities/shared/contracts/approvals.js';
import { call, expectOk, get, SignInNeeded } from './api.js';
import { h, show, when } from './dom.js';
import type { View } from './view.js';

type Decision = 'APPROVED' | 'REJECTED';

/** How many decided approvals the page lists under the waiting ones. */
const RECENT = 20;

function outcomeText(outcome: ApprovalOutcome | undefined): string {
  if (!outcome) return '';
  if (outcome.performed) return `done (${outcome.answer.status})`;
  return `refused: ${outcome.errorInformation.errorCode} ${outcome.errorInformation.errorDescription}`;
}

/** What was asked, as the person deciding reads it: the request and the values it carries. */
function change(approval: ApprovalView): HTMLElement {
  return h('td', {}, h('b', {}, approval.summary), h('br'), h('code', { class: 'input' }, JSON.stringify(approval.input)));
}

/**
 * Changes held for a second person (four eyes, ADMIN_FOUR_EYES): those waiting, with who asked, what, when and until
 * when, each approved or rejected here with a reason; and the latest decided, with what became of them. The hub
 * refuses a decision on one's own request or on a kind of change one's roles do not allow, and the page says so.
 */
export function approvalsView(): View {
  const waiting = h('tbody');
  const decided = h('tbody');
  const outcome = h('p', { class: 'outcome', role: 'status' });
  // Rows of waiting approvals are kept between refreshes, so a reason being typed is not wiped every few seconds.
  const rows = new Map<string, HTMLElement>();

  const decide = async (approval: ApprovalView, decision: Decision, reason: string) => {
    try {
      const decidedNow = expectOk(await call<ApprovalView>('PUT', `/approvals/${approval.approvalId}`, { decision, ...(reason && { reason }) }));
      show(outcome, `${approval.summary}: ${decidedNow.state}${decidedNow.outcome ? `, ${outcomeText(decidedNow.outcome)}` : ''}`);
    } catch (error) {
      // A 403 here is the hub refusing this decision (one's own request, a role that does not allow it), not a sign-in.
      show(outcome, `Refused: ${(error as Error).message || (error instanceof SignInNeeded ? 'you may not decide on this change' : '')}`);
    }
    await refresh();
  };

  const element = h(
    'section',
    {},
    h('h1', {}, 'Approvals'),
    h('h2', {}, 'Waiting for a second person'),
    h(
      'table',
      { class: 'list', 'data-list': 'waiting' },
      h('thead', {}, h('tr', {}, ...['Asked', 'By', 'Change', 'Expires', 'Decision'].map((title) => h('th', {}, title)))),
      waiting,
    ),
    outcome,
    h('h2', {}, 'Decided lately'),
    h(
      'table',
      { class: 'list', 'data-list': 'decided' },
      h('thead', {}, h('tr', {}, ...['Asked', 'By', 'Change', 'State', 'Decided by', 'Reason', 'Outcome'].map((title) => h('th', {}, title)))),
      decided,
    ),
  );

  const refresh = async () => {
    const [pending, latest] = await Promise.all([get<ApprovalView[]>('/approvals?state=PENDING'), get<ApprovalView[]>('/approvals')]);
    for (const id of [...rows.keys()]) if (!pending.some((approval) => approval.approvalId === id)) rows.delete(id);
    for (const approval of pending) if (!rows.has(approval.approvalId)) rows.set(approval.approvalId, waitingRow(approval, decide));
    show(waiting, pending.length === 0 ? h('tr', {}, h('td', { colspan: 5 }, 'None waiting.')) : pending.map((approval) => rows.get(approval.approvalId)!));
    show(
      decided,
      latest
        .filter((approval) => approval.state !== 'PENDING')
        .slice(0, RECENT)
        .map(decidedRow),
    );
  };
  return { element, refresh };
}

/** A row of the table: when the change was asked for, by whom, what it is, then the cells of its state. */
function approvalRow(approval: ApprovalView, ...cells: HTMLElement[]): HTMLElement {
  return h(
    'tr',
    { 'data-approval': approval.approvalId },
    h('td', {}, when(approval.requestedDate)),
    h('td', {}, approval.requestedBy.name),
    change(approval),
    ...cells,
  );
}

/** A change waiting for a second person, with the reason to give and the two decisions. */
function waitingRow(approval: ApprovalView, decide: (approval: ApprovalView, decision: Decision, reason: string) => Promise<void>): HTMLElement {
  const reason = h('input', { name: 'reason', placeholder: 'reason', 'aria-label': 'Reason' }) as HTMLInputElement;
  const button = (decision: Decision, label: string) =>
    h('button', { type: 'button', 'data-decision': decision, onclick: () => decide(approval, decision, reason.value.trim()) }, label);
  return approvalRow(
    approval,
    h('td', {}, when(approval.expiresDate)),
    h('td', {}, reason, ' ', button('APPROVED', 'Approve'), ' ', button('REJECTED', 'Reject')),
  );
}

/** A decided change: who decided it, why, and what became of it. */
function decidedRow(approval: ApprovalView): HTMLElement {
  return approvalRow(
    approval,
    h('td', { class: 'state' }, approval.state),
    h('td', {}, approval.decidedBy?.name ?? ''),
    h('td', {}, approval.reason ?? ''),
    h('td', {}, outcomeText(approval.outcome)),
  );
}
