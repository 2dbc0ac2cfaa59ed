import type http from 'node:http';
import { jsonOrUndefined, serveLocally } from '../helpers/http';

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
export class ThirdpartyBackend {
  readonly accounts = new Map<string, BankAccount[]>();
  readonly received: Array<{ method: string; path: string; body: unknown }> = [];

  private constructor(
    private readonly server: http.Server,
    readonly port: number,
  ) {}

  static async start(): Promise<ThirdpartyBackend> {
    let backend: ThirdpartyBackend | undefined;
    const { server, port } = await serveLocally((request, bytes, response) => {
      const body = jsonOrUndefined(bytes.toString('utf-8'));
      backend!.received.push({ method: request.method!, path: request.url!, body });
      backend!.answer(request, body, response);
    });
    backend = new ThirdpartyBackend(server, port);
    return backend;
  }

  private answer(request: http.IncomingMessage, body: unknown, response: http.ServerResponse): void {
    const reply = (status: number, body: unknown): void => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    const userAccounts = /^\/accounts\/([^/]+)$/.exec(request.url ?? '');
    if (request.method === 'GET' && userAccounts) {
      const held = this.accounts.get(decodeURIComponent(userAccounts[1]));
      // The SDK takes the error code of a refusal from its body's statusCode (3200: no such user).
      return held ? reply(200, { accounts: held }) : reply(404, { statusCode: '3200' });
    }
    if (request.method === 'POST' && request.url === '/validateConsentRequests') return reply(200, { isValid: true, data: { authChannels: ['OTP'] } });
    if (request.method === 'POST' && request.url === '/sendOTP') return reply(200, {});
    if (request.method === 'POST' && request.url === '/validateAuthToken') {
      return reply(200, { isValid: (body as { authToken?: string } | undefined)?.authToken === LINKING_OTP });
    }
    if (request.method === 'POST' && request.url === '/store/consent') return reply(200, {});
    reply(404, { statusCode: '3002' });
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
