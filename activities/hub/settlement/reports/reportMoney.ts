import { Decimal, formatAmount } from '../../db/money';

/** A participant account's net amount in a settlement: above zero it pays that much, below zero it receives it. */
export interface NetLine {
  currency: string;
  netSettlementAmount: string;
}

/** What a net amount means to the settlement bank: the amount to pay, the amount to receive (one of them is zero). */
export function payOrReceive(netSettlementAmount: string): { toPay: string; toReceive: string } {
  const net = new Decimal(netSettlementAmount);
  return { toPay: formatAmount(Decimal.max(net, 0)), toReceive: formatAmount(Decimal.max(net.negated(), 0)) };
}

export interface CurrencyTotal {
  currency: string;
  toPay: string;
  toReceive: string;
  /** What all participants pay less what they receive: zero in a settlement, where every payment has two sides. */
  net: string;
}

/** The settlement's totals per currency (sorted): what is paid, what is received, and their difference. */
export function initiationTotals(lines: NetLine[]): CurrencyTotal[] {
  const totals = new Map<string, { toPay: Decimal; toReceive: Decimal }>();
  for (const line of lines) {
    const held = totals.get(line.currency) ?? { toPay: new Decimal(0), toReceive: new Decimal(0) };
    const { toPay, toReceive } = payOrReceive(line.netSettlementAmount);
    totals.set(line.currency, { toPay: held.toPay.plus(toPay), toReceive: held.toReceive.plus(toReceive) });
  }
  return [...totals.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, { toPay, toReceive }]) => ({
      currency,
      toPay: formatAmount(toPay),
      toReceive: formatAmount(toReceive),
      net: formatAmount(toPay.minus(toReceive)),
    }));
}

/** A participant's payments in one window and currency: what it sent, what it received, and how many of each. */
export interface WindowFlow {
  settlementWindowId: number;
  currency: string;
  sentAmount: string;
  sentCount: number;
  receivedAmount: string;
  receivedCount: number;
  /** Sent less received: what the window adds to the participant's net settlement amount. */
  netAmount: string;
}

/** A payment as the DFSP settlement report counts it: which window, which currency, how much, and which way. */
export interface FlowPayment {
  settlementWindowId: number;
  currency: string;
  amount: string;
  sent: boolean;
}

/** Adds payments to a participant's per-window flows (kept in `into`, one entry per window and currency). */
export function addToFlows(payments: Iterable<FlowPayment>, into: Map<string, WindowFlow>): Map<string, WindowFlow> {
  for (const payment of payments) {
    const key = `${payment.settlementWindowId}/${payment.currency}`;
    const held = into.get(key) ?? emptyFlow(payment.settlementWindowId, payment.currency);
    const sent = new Decimal(held.sentAmount).plus(payment.sent ? payment.amount : 0);
    const received = new Decimal(held.receivedAmount).plus(payment.sent ? 0 : payment.amount);
    into.set(key, {
      ...held,
      sentAmount: formatAmount(sent),
      sentCount: held.sentCount + (payment.sent ? 1 : 0),
      receivedAmount: formatAmount(received),
      receivedCount: held.receivedCount + (payment.sent ? 0 : 1),
      netAmount: formatAmount(sent.minus(received)),
    });
  }
  return into;
}

function emptyFlow(settlementWindowId: number, currency: string): WindowFlow {
  return { settlementWindowId, currency, sentAmount: '0', sentCount: 0, receivedAmount: '0', receivedCount: 0, netAmount: '0' };
}

/** The flows' totals per currency (sorted), in the shape of a window's flow without its window. */
export function flowTotals(flows: WindowFlow[]): Array<Omit<WindowFlow, 'settlementWindowId'>> {
  const byCurrency = new Map<string, WindowFlow>();
  for (const flow of flows) {
    const held = byCurrency.get(flow.currency) ?? emptyFlow(0, flow.currency);
    byCurrency.set(flow.currency, {
      ...held,
      sentAmount: formatAmount(new Decimal(held.sentAmount).plus(flow.sentAmount)),
      sentCount: held.sentCount + flow.sentCount,
      receivedAmount: formatAmount(new Decimal(held.receivedAmount).plus(flow.receivedAmount)),
      receivedCount: held.receivedCount + flow.receivedCount,
      netAmount: formatAmount(new Decimal(held.netAmount).plus(flow.netAmount)),
    });
  }
  return [...byCurrency.values()].sort((a, b) => a.currency.localeCompare(b.currency)).map(({ settlementWindowId: _window, ...total }) => total);
}

/**
 * An account's balances over a period from its balance now and the journal since: `sinceStart` is the sum of its
 * postings at or after the period's start, `sinceEnd` of those at or after its end. A balance is the sum of its
 * journal, so what stood before a time is the balance now less what was posted since.
 */
export function periodBalances(balanceNow: string, sinceStart: string, sinceEnd: string): { opening: string; movements: string; closing: string } {
  const now = new Decimal(balanceNow);
  return {
    opening: formatAmount(now.minus(sinceStart)),
    movements: formatAmount(new Decimal(sinceStart).minus(sinceEnd)),
    closing: formatAmount(now.minus(sinceEnd)),
  };
}
