/**
 * The admin API as the console calls it: the page's own origin, the operator's bearer token (kept for this browser tab
 * only) on every call. A 401, or a 403 that refuses the credential, asks the operator to sign in (again); a 403 that
 * says the credential's roles do not allow the call (RFC 6750's `insufficient_scope`) is shown where it happened.
 */

const TOKEN = 'hub-console-token';
/** How the token was had: `token` (typed in, one of ADMIN_API_TOKENS) or `oidc` (the identity provider's access token). */
const TOKEN_KIND = 'hub-console-token-kind';

/** The hub refused the credential, or there is none: `message` says why, when the hub said. */
export class SignInNeeded extends Error {}

/** The credential is good, but its roles do not allow the call. */
export class NotAllowed extends Error {}

export interface Answer<T = unknown> {
  status: number;
  body: T;
}

export const token = {
  get: () => sessionStorage.getItem(TOKEN) ?? undefined,
  kind: () => (sessionStorage.getItem(TOKEN_KIND) ?? 'token') as 'token' | 'oidc',
  set: (value: string, kind: 'token' | 'oidc' = 'token') => {
    sessionStorage.setItem(TOKEN, value);
    sessionStorage.setItem(TOKEN_KIND, kind);
  },
  clear: () => {
    sessionStorage.removeItem(TOKEN);
    sessionStorage.removeItem(TOKEN_KIND);
  },
};

/** What a refusal of the caller means for the page: sign in (again), or not allowed; undefined for any other answer. */
async function refusalOf(response: Response): Promise<Error | undefined> {
  if (response.status !== 401 && response.status !== 403) return undefined;
  const body = (await response.json().catch(() => undefined)) as { errorInformation?: { errorDescription?: string } } | undefined;
  // "Generic client error - Forbidden: …": the part after the code's words.
  const reason = body?.errorInformation?.errorDescription?.replace(/^[^:]*? - /, '') ?? `answered ${response.status}`;
  const insufficient = /error="insufficient_scope"/.test(response.headers.get('www-authenticate') ?? '');
  return response.status === 403 && insufficient ? new NotAllowed(reason) : new SignInNeeded(reason);
}

export function call<T = unknown>(method: string, path: string, body?: unknown): Promise<Answer<T>> {
  return send<T>(method, path, body === undefined ? undefined : { type: 'application/json', text: JSON.stringify(body) });
}

/**
 * Sends a body as the operator's file holds it (the bank's CSV), under its media type: the admin API takes only types
 * a page of another site cannot send without the browser's permission, and the bearer token goes with it as with JSON.
 */
export function upload<T = unknown>(path: string, text: string, type: string): Promise<Answer<T>> {
  return send<T>('POST', path, { type, text });
}

async function send<T>(method: string, path: string, content?: { type: string; text: string }): Promise<Answer<T>> {
  const bearer = token.get();
  const response = await fetch(path, {
    method,
    headers: {
      accept: 'application/json',
      ...(content ? { 'content-type': content.type } : {}),
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
    },
    body: content?.text,
  });
  const refusal = await refusalOf(response);
  if (refusal) throw refusal;
  const text = await response.text();
  return { status: response.status, body: (text === '' ? undefined : JSON.parse(text)) as T };
}

/** What a change held for a second person (ADMIN_FOUR_EYES) answers: nothing is done until someone approves it. */
export class Held extends Error {
  constructor(readonly approvalId: string) {
    super(`Held for a second person: approval ${approvalId} (see Approvals)`);
  }
}

/** A call that must succeed: its body, or an Error with the ErrorInformation the API answered. */
export async function get<T = unknown>(path: string): Promise<T> {
  return expectOk(await call<T>('GET', path));
}

export function expectOk<T>(answer: Answer<T>): T {
  const held = answer.body as { approvalId?: string; state?: string } | undefined;
  if (answer.status === 202 && held?.state === 'PENDING' && held.approvalId) throw new Held(held.approvalId);
  if (answer.status >= 400) {
    const error = (answer.body as { errorInformation?: { errorCode: string; errorDescription: string } } | undefined)?.errorInformation;
    throw new Error(error ? `${error.errorCode} ${error.errorDescription}` : `answered ${answer.status}`);
  }
  return answer.body;
}

/** Saves what the API answers at `path` as a file, with the operator's credential (a plain link would carry none). */
export async function download(path: string, filename: string): Promise<void> {
  const bearer = token.get();
  const response = await fetch(path, { headers: bearer ? { authorization: `Bearer ${bearer}` } : {} });
  const refusal = await refusalOf(response);
  if (refusal) throw refusal;
  const url = URL.createObjectURL(await response.blob());
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = filename;
  anchor.click();
  URL.revokeObjectURL(url);
}
