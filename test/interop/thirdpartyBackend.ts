import { RecordingBackend, type BackendAnswer } from './recordingBackend';

/** An account a user holds at the bank, as the thirdparty-sdk hands it on in PUT /accounts/{ID}. */
export interface BankAccount {
  accountNickname: string;
  address: string;
  currency: string;
}

/** The one-time password the bank sends its users when a PISP asks to link their accounts (OTP channel). */
export const LINKING_OTP = '246810';

/**
 * The bank's own system behind a thirdparty-sdk DFSP (its DFSP_BACKEND_URI): the SDK asks it for a user's accounts
 * (GET /accounts/{userId}), to check a consent request and send the user an OTP, to check the OTP the user gave the
 * PISP, and to keep the consent once the Auth service has verified its credential. Everything the SDK sends is
 * recorded for the checks.
 */
export class ThirdpartyBackend extends RecordingBackend {
  readonly accounts = new Map<string, BankAccount[]>();

  static start(): Promise<ThirdpartyBackend> {
    return new ThirdpartyBackend().listen();
  }

  protected answer(method: string, path: string, body: any): BackendAnswer {
    const userAccounts = /^\/accounts\/([^/]+)$/.exec(path);
    if (method === 'GET' && userAccounts) {
      const held = this.accounts.get(decodeURIComponent(userAccounts[1]));
      // The SDK takes the error code of a refusal from its body's statusCode (3200: no such user).
      return held ? { status: 200, body: { accounts: held } } : { status: 404, body: { statusCode: '3200' } };
    }
    if (method === 'POST' && path === '/validateConsentRequests') return { status: 200, body: { isValid: true, data: { authChannels: ['OTP'] } } };
    if (method === 'POST' && (path === '/sendOTP' || path === '/store/consent')) return { status: 200, body: {} };
    if (method === 'POST' && path === '/validateAuthToken') return { status: 200, body: { isValid: body?.authToken === LINKING_OTP } };
    return { status: 404, body: { statusCode: '3002' } };
  }
}
