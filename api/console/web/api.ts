/**
 * The admin API as the console calls it: the page's own origin, the operator's bearer token (kept for this browser tab
 * only) on every call. A 401 or 403 asks the operator to sign in.
 */

const TOKEN = 'hub-console-token';

export class SignInNeeded extends Error {}

export interface Answer<T = unknown> {
  status: number;
  body: T;
}

export const token = {
  get: () => sessionStorage.getItem(TOKEN) ?? undefined,
  set: (value: string) => sessionStorage.setItem(TOKEN, value),
  clear: () => sessionStorage.removeItem(TOKEN),
};

export async function call<T = unknown>(method: string, path: string, body?: unknown): Promise<Answer<T>> {
  const bearer = token.get();
  const response = await fetch(path, {
    method,
    headers: {
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  // The hub's words go with it: a 403 may refuse one action (approving one's own change) rather than the credential.
  if (response.status === 401 || response.status === 403) throw new SignInNeeded(refusalOf(text));
  return { status: response.status, body: (text === '' ? undefined : JSON.parse(text)) as T };
}

function refusalOf(text: string): string {
  try {
    const { errorInformation } = JSON.parse(text) as { errorInformation?: { errorCode: string; errorDescription: string } };
    return errorInformation ? `${errorInformation.errorCode} ${errorInformation.errorDescription}` : '';
  } catch {
    return '';
  }
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
  if (response.status === 401 || response.status === 403) throw new SignInNeeded();
  const url = URL.createObjectURL(await response.blob());
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = filename;
  anchor.click();
  URL.revokeObjectURL(url);
}
