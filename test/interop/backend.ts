import { RecordingBackend, type BackendAnswer } from './recordingBackend';

/** A customer the backend holds, in the scheme adapter's internal party form. */
export interface Customer {
  idType: string;
  idValue: string;
  displayName: string;
  firstName: string;
  lastName: string;
  dateOfBirth: string;
}

/** The OTP every customer of the suite enters to approve a merchant's request to pay. */
export const MERCHANT_OTP = '4711';

/** What a payee's backend does with an incoming transfer, chosen by the transfer's amount. */
export type TransferDecision = { kind: 'accept' } | { kind: 'reject' } | { kind: 'delay'; ms: number };

/**
 * The DFSP's own system behind a stock Mojaloop SDK scheme adapter (its "core connector"): the adapter asks
 * it for parties (GET /parties/{Type}/{ID}), quotes (POST /quoterequests) and transfers (POST /transfers),
 * hands it merchants' requests to pay (POST /transactionrequests) and asks it for OTPs (GET /otp/{ID}), and
 * tells it outcomes (PUT /transfers/{ID}). Everything the adapter sends is recorded for the checks.
 */
export class DfspBackend extends RecordingBackend {
  readonly customers = new Map<string, Customer>();
  decide: (amount: string) => TransferDecision = () => ({ kind: 'accept' });

  static start(): Promise<DfspBackend> {
    return new DfspBackend().listen();
  }

  protected async answer(method: string, path: string, body: any): Promise<BackendAnswer> {
    const party = /^\/parties\/([^/]+)\/([^/]+)$/.exec(path);
    if (method === 'GET' && party) {
      const customer = this.customers.get(`${party[1]}/${party[2]}`);
      return customer ? { status: 200, body: customer } : { status: 404, body: { statusCode: '3204', message: 'Party not found' } };
    }
    if (method === 'POST' && path === '/quoterequests') {
      return {
        status: 200,
        body: {
          quoteId: body.quoteId,
          transactionId: body.transactionId,
          transferAmount: body.amount,
          transferAmountCurrency: body.currency,
          payeeReceiveAmount: body.amount,
          payeeReceiveAmountCurrency: body.currency,
        },
      };
    }
    if (method === 'POST' && path === '/transfers') {
      const decision = this.decide(body.amount);
      if (decision.kind === 'reject') return { status: 500, body: { statusCode: '5104', message: 'Payee rejected transaction' } };
      if (decision.kind === 'delay') await new Promise((resolve) => setTimeout(resolve, decision.ms));
      return { status: 200, body: { homeTransactionId: `home-${body.transferId}` } };
    }
    if (method === 'PUT' && path.startsWith('/transfers/')) return { status: 200 };
    // A merchant's request to pay reaches the customer's DFSP, which takes it in (the customer approves later).
    if (method === 'POST' && path === '/transactionrequests') return { status: 200, body: { transactionRequestState: 'RECEIVED' } };
    // The one-time password the merchant's customer entered, asked for when the payer DFSP requests authorization.
    if (method === 'GET' && path.startsWith('/otp/')) return { status: 200, body: { otpValue: MERCHANT_OTP } };
    return { status: 404, body: { statusCode: '3002', message: `unknown ${method} ${path}` } };
  }
}
