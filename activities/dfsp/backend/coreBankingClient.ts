import type {
  BackendParty,
  BackendQuoteRequest,
  BackendQuoteResponse,
  BackendTransferNotification,
  BackendTransferRequest,
  BackendTransferResponse,
  CoreBanking,
} from './coreBanking';
import { CoreBankingRefusal } from './coreBanking';
import { isRedirect } from '../../shared/platform/fspiopHttp';

/**
 * A real core-banking adapter at BACKEND_ENDPOINT, over the sdk-scheme-adapter's backend API: JSON over HTTP, an
 * errorResponse body ({ statusCode, message }) on refusal. The endpoint may be given as the SDK takes it
 * (`host:port`, http assumed) or as a URL.
 */
export class CoreBankingClient implements CoreBanking {
  private readonly base: string;

  constructor(
    endpoint: string,
    private readonly timeoutMs = 65_000,
  ) {
    this.base = (/^https?:\/\//.test(endpoint) ? endpoint : `http://${endpoint}`).replace(/\/+$/, '');
  }

  async party(idType: string, idValue: string, idSubValue?: string): Promise<BackendParty | undefined> {
    const path = ['parties', idType, idValue, ...(idSubValue === undefined ? [] : [idSubValue])].map(encodeURIComponent).join('/');
    try {
      return (await this.call('GET', `/${path}`)) as BackendParty;
    } catch (error) {
      // The backend API answers 404 for a party the bank does not hold.
      if (error instanceof CoreBankingRefusal && error.httpStatus === 404) return undefined;
      throw error;
    }
  }

  async quoteRequest(request: BackendQuoteRequest): Promise<BackendQuoteResponse> {
    return (await this.call('POST', '/quoterequests', request)) as BackendQuoteResponse;
  }

  async transfer(request: BackendTransferRequest): Promise<BackendTransferResponse> {
    return (await this.call('POST', '/transfers', request)) as BackendTransferResponse;
  }

  async transferNotification(transferId: string, notification: BackendTransferNotification): Promise<void> {
    await this.call('PUT', `/transfers/${encodeURIComponent(transferId)}`, notification);
  }

  /**
   * One request; a non-2xx answer is the bank's refusal, a network failure or timeout is thrown as it is. A redirect
   * is a refusal too, never followed (fetch would follow it): Document 2 has a 3xx investigated by hand, not retried,
   * and a bank's money calls must not be sent on to wherever an answer points.
   */
  private async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers: { 'content-type': 'application/json', accept: 'application/json', date: new Date().toUTCString() },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (isRedirect(response.status)) {
      await response.body?.cancel();
      throw new CoreBankingRefusal(undefined, `${method} ${path} answered ${response.status}, a redirect, which is not followed`, response.status);
    }
    const text = await response.text();
    const parsed = parseJson(text);
    if (!response.ok) {
      const refusal = (parsed ?? {}) as { statusCode?: unknown; message?: unknown };
      throw new CoreBankingRefusal(
        refusal.statusCode === undefined ? undefined : String(refusal.statusCode),
        typeof refusal.message === 'string' ? refusal.message : `${method} ${path} answered ${response.status}`,
        response.status,
      );
    }
    return parsed;
  }
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
