import { Decimal, formatAmount } from '../db/money';
import { SETTLEMENT_TEXT_LENGTHS, type SettlementState } from '../db/settlementEntities';
import { HubError } from '../../shared/platform/hubError';
import { errorInformation, type ErrorInformation } from '../../shared/contracts/errors';

/**
 * One line of the settlement bank's confirmation: what the bank moved for a participant's account. `amount` carries
 * the net settlement amount's sign, as the settlement's report gives it: above zero the participant paid that much in,
 * below zero it received it.
 */
export interface BankConfirmationLine {
  /** The participant's name, or its ID as the settlement API shows it. */
  participant: string;
  /** Its POSITION account in the settlement, where a participant settles more than one currency and the file says which. */
  accountId?: number;
  currency: string;
  amount: string;
  /** The bank's reference for the movement. */
  reference: string;
}

/** A participant's account of the settlement, as the confirmation is checked against it. */
export interface AccountToConfirm {
  participantId: number;
  participant: string;
  accountId: number;
  currency: string;
  netAmount: string;
}

export type ProblemKind = 'state' | 'missing' | 'unknown' | 'duplicate' | 'currency' | 'amount' | 'reference';

/** What is wrong with the confirmation: for whom, what the settlement expected, and what the file said. */
export interface ConfirmationProblem {
  problem: ProblemKind;
  participant?: string;
  currency?: string;
  expected: string;
  sent: string;
}

/** What the check found: every problem, and the bank's reference for each settlement account confirmed, by account. */
export interface ConfirmationCheck {
  problems: ConfirmationProblem[];
  references: Map<number, string>;
}

/** The one state from which a settlement's accounts go to SETTLED as a whole (settlementStates.ts). */
export const CONFIRMABLE_STATE: SettlementState = 'PS_TRANSFERS_COMMITTED';

/** A decimal written plainly: no exponent, no sign but a minus, at most the ledger's 4 places. */
const AMOUNT = /^-?\d{1,34}(\.\d{1,4})?$/;

/**
 * Every way the bank's confirmation departs from the settlement, none left out, so the operator corrects the file once:
 * the settlement must be in PS_TRANSFERS_COMMITTED (its transfers committed, nothing settled yet); each of its accounts
 * must be confirmed exactly once, no other, in its currency, for exactly its net amount, with the bank's reference.
 */
export function checkConfirmation(state: SettlementState, accounts: AccountToConfirm[], lines: BankConfirmationLine[]): ConfirmationCheck {
  const problems: ConfirmationProblem[] = [];
  if (state !== CONFIRMABLE_STATE) problems.push({ problem: 'state', expected: CONFIRMABLE_STATE, sent: `settlement in ${state}` });
  const confirmed = new Map<AccountToConfirm, BankConfirmationLine>();
  for (const line of lines) {
    const account = accountOf(accounts, line, problems);
    if (!account) continue;
    const who = { participant: account.participant, currency: account.currency };
    if (confirmed.has(account)) {
      problems.push({ problem: 'duplicate', ...who, expected: 'one line', sent: 'another line' });
      continue;
    }
    confirmed.set(account, line);
    if (!AMOUNT.test(line.amount) || !new Decimal(line.amount).equals(account.netAmount)) {
      problems.push({ problem: 'amount', ...who, expected: formatAmount(account.netAmount), sent: line.amount });
    }
    const reference = line.reference.trim();
    if (reference === '' || reference.length > SETTLEMENT_TEXT_LENGTHS.externalReference) {
      problems.push({
        problem: 'reference',
        ...who,
        expected: `the bank's reference, 1 to ${SETTLEMENT_TEXT_LENGTHS.externalReference} characters`,
        sent: line.reference,
      });
    }
  }
  for (const account of accounts) {
    if (!confirmed.has(account)) {
      problems.push({
        problem: 'missing',
        participant: account.participant,
        currency: account.currency,
        expected: formatAmount(account.netAmount),
        sent: 'no line',
      });
    }
  }
  return { problems, references: new Map([...confirmed].map(([account, line]) => [account.accountId, line.reference.trim()])) };
}

/**
 * The settlement account a line confirms, or undefined with the problem recorded: a participant not in the settlement
 * is unknown; one whose accounts are in other currencies is confirmed in the wrong one (its single account is taken as
 * meant, so it is not reported missing as well).
 */
function accountOf(accounts: AccountToConfirm[], line: BankConfirmationLine, problems: ConfirmationProblem[]): AccountToConfirm | undefined {
  const own = accounts.filter((account) => account.participant === line.participant || String(account.participantId) === line.participant);
  const sent = { participant: line.participant, currency: line.currency };
  if (own.length === 0) {
    problems.push({ problem: 'unknown', ...sent, expected: 'a participant of the settlement', sent: line.participant });
    return undefined;
  }
  if (line.accountId !== undefined) {
    const account = own.find((entry) => entry.accountId === line.accountId);
    if (!account)
      problems.push({
        problem: 'unknown',
        ...sent,
        expected: `one of accounts ${own.map((entry) => entry.accountId).join(', ')}`,
        sent: `account ${line.accountId}`,
      });
    else if (account.currency !== line.currency) problems.push({ problem: 'currency', ...sent, expected: account.currency, sent: line.currency });
    return account;
  }
  const inCurrency = own.find((account) => account.currency === line.currency);
  if (inCurrency) return inCurrency;
  problems.push({ problem: 'currency', ...sent, expected: own.map((account) => account.currency).join(' or '), sent: line.currency });
  return own.length === 1 ? own[0] : undefined;
}

/** One problem in words: who, what was expected, what was sent. */
export function problemText({ problem, participant, currency, expected, sent }: ConfirmationProblem): string {
  const who = participant === undefined ? 'settlement' : `${participant}${currency ? ` ${currency}` : ''}`;
  return `${who}: ${problem} expected ${expected}, sent ${sent}`;
}

/**
 * The confirmation refused, with every problem in its ErrorInformation's extension list (key: the problem, value: who,
 * what was expected, what was sent), so the console and a script list them all; nothing was moved.
 */
export class BankConfirmationRefused extends HubError {
  constructor(
    readonly settlementId: number,
    readonly problems: ConfirmationProblem[],
  ) {
    super('validationError', `the bank's confirmation does not match settlement ${settlementId}: ${problems.length} problem(s)`);
  }

  override get errorInformation(): ErrorInformation {
    return {
      ...errorInformation(this.errorName, this.detail),
      extensionList: { extension: this.problems.map((problem) => ({ key: problem.problem, value: problemText(problem) })) },
    };
  }
}
