import { Decimal, type DecimalValue } from '../../shared/contracts/money';
import { formatAmount } from '../db/money';

/** Document 3's e-mail endpoints: where a participant hears of its limits and of settlement moving its position. */
export type NotificationType = 'NET_DEBIT_CAP_THRESHOLD_BREACH_EMAIL' | 'NET_DEBIT_CAP_ADJUSTMENT_EMAIL' | 'SETTLEMENT_TRANSFER_POSITION_CHANGE_EMAIL';

/**
 * One event told by e-mail, as Mojaloop's central-event-processor and email-notifier tell it: one subject, a text for
 * the participant it is about (at its endpoint of `type`) and one for the hub's operator (at the hub's endpoint of
 * the same type). Subjects are theirs word for word, since operators' mail rules filter on them.
 */
export interface Notice {
  type: NotificationType;
  /** The currency of the position or limit it tells of. */
  currency: string;
  subject: string;
  toParticipant: string;
  toHub: string;
}

const SIGNATURE = 'This is an automatically generated email message.';

/**
 * A position has risen past the alarm threshold of its Net Debit Cap. Like central-event-processor, it gives the share
 * of the cap still left, in percent to two places, and the position.
 */
export function thresholdBreachNotice(dfsp: string, currency: string, position: DecimalValue, netDebitCap: DecimalValue): Notice {
  const cap = new Decimal(netDebitCap);
  const left = cap.isZero() ? new Decimal(0) : new Decimal(100).minus(new Decimal(position).times(100).dividedBy(cap));
  const stands = `${formatAmount(position)} ${currency}`;
  return {
    type: 'NET_DEBIT_CAP_THRESHOLD_BREACH_EMAIL',
    currency,
    subject: 'NET_DEBIT_CAP BREACH CONDITION REACHED',
    toParticipant: [
      `Dear ${dfsp},`,
      `Your position has passed the alarm threshold you set and nears your NET_DEBIT_CAP limit: ${left.toFixed(2)}% of the limit is left.\nYour current position is ${stands}.`,
      'Once your position reaches the limit, the hub rejects your outgoing transfers until it falls again.',
      SIGNATURE,
    ].join('\n\n'),
    toHub: [
      `${dfsp} has passed the alarm threshold it set and nears its NET_DEBIT_CAP limit: ${left.toFixed(2)}% of the limit is left.\nIts current position is ${stands}.`,
      `Once the position reaches the limit, the hub rejects outgoing transfers from ${dfsp} until it falls again.`,
      SIGNATURE,
    ].join('\n\n'),
  };
}

/** The operator has set a participant's Net Debit Cap. */
export function limitAdjustmentNotice(dfsp: string, currency: string, value: DecimalValue): Notice {
  const limit = `${formatAmount(value)} ${currency}`;
  return {
    type: 'NET_DEBIT_CAP_ADJUSTMENT_EMAIL',
    currency,
    subject: 'NET_DEBIT_CAP LIMIT ADJUSTMENT',
    toParticipant: [`Dear ${dfsp},`, `Your NET_DEBIT_CAP limit is now ${limit}.`, SIGNATURE].join('\n\n'),
    toHub: [`The NET_DEBIT_CAP limit of ${dfsp} is now ${limit}.`, SIGNATURE].join('\n\n'),
  };
}

/** A settlement has committed its transfers and so moved a participant's position. */
export function positionChangeNotice(dfsp: string, currency: string, position: DecimalValue): Notice {
  const stands = `${formatAmount(position)} ${currency}`;
  return {
    type: 'SETTLEMENT_TRANSFER_POSITION_CHANGE_EMAIL',
    currency,
    subject: 'Settlement Position Change',
    toParticipant: [`Dear ${dfsp},`, `A settlement has changed your position.\nYour current position is ${stands}.`, SIGNATURE].join('\n\n'),
    toHub: [`A settlement has changed the position of ${dfsp}.\nIts current position is ${stands}.`, SIGNATURE].join('\n\n'),
  };
}
