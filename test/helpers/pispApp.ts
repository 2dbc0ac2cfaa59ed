import crypto from 'node:crypto';
import type { SoftAuthenticator } from './softAuthenticator';

/** An answer of a connector's API: its status and JSON body. */
export interface Answer {
  status: number;
  body: any;
}

/** One JSON call to an HTTP API, as an app makes it. */
export async function callApi(baseUrl: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** A bank the PISP links to: its participant ID, and its simulated pages (the user's phone, its login page). */
export interface Bank {
  id: string;
  /** The DFSP connector's outbound URL, where the simulated bank serves /simulator/…. */
  outboundUrl: string;
}

/** How the user proves consent: the PISP's own GENERIC key, or a FIDO authenticator on the user's device. */
export type Credential = 'GENERIC' | SoftAuthenticator;

export interface Linked {
  consentRequestId: string;
  consentId: string;
  channel: 'OTP' | 'WEB';
  account: string;
  /** Every answer of the app's calls, in order, for a story to show. */
  answers: Answer[];
}

export interface Payment {
  transactionRequestId: string;
  answers: Answer[];
  /** The final answer: approve's, or the first call that failed. */
  outcome: Answer;
}

function expect(answer: Answer, state: string, what: string): Answer {
  if (answer.body?.currentState !== state) throw new Error(`${what}: expected ${state}, got ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer;
}

/**
 * The PISP's app and its user, calling the PISP connector's outbound API (Mojaloop thirdparty-sdk's) as an app written
 * for that SDK does, and playing the user at the bank: reading the OTP from their phone, or signing in at the bank's
 * login page (the simulated bank's pages on its DFSP connector).
 */
export class PispApp {
  constructor(readonly outboundUrl: string) {}

  call(method: string, path: string, body?: unknown): Promise<Answer> {
    return callApi(this.outboundUrl, method, path, body);
  }

  /** Links `userId`'s first account at `bank`: request consent, authenticate on the channel the bank chose, register the credential. */
  async link(bank: Bank, userId: string, credential: Credential): Promise<Linked> {
    const answers: Answer[] = [];
    const accounts = expect(await this.call('GET', `/linking/accounts/${bank.id}/${encodeURIComponent(userId)}`), 'COMPLETED', 'accounts');
    answers.push(accounts);
    const account = accounts.body.accounts[0];
    const consentRequestId = crypto.randomUUID();
    const requested = await this.call('POST', '/linking/request-consent', {
      toParticipantId: bank.id,
      consentRequestId,
      accounts: [{ accountNickname: account.accountNickname, address: account.address, currency: account.currency }],
      actions: ['ACCOUNTS_TRANSFER', 'ACCOUNTS_GET_BALANCE'],
      userId,
      callbackUri: 'https://pisp.example.org/linked',
    });
    answers.push(requested);
    const channel = requested.body?.channelResponse?.authChannels?.[0] as 'OTP' | 'WEB' | undefined;
    if (!channel) throw new Error(`request-consent: ${requested.status} ${JSON.stringify(requested.body)}`);
    const authToken = channel === 'OTP' ? await this.otpOnPhone(bank, userId, consentRequestId) : await this.signInAt(requested.body.channelResponse.authUri);
    const authenticated = expect(
      await this.call('PATCH', `/linking/request-consent/${consentRequestId}/authenticate`, { authToken }),
      'consentReceivedAwaitingCredential',
      'authenticate',
    );
    answers.push(authenticated);
    const passed =
      credential === 'GENERIC' ? { credential: { credentialType: 'GENERIC' } } : { credential: { payload: credential.register(authenticated.body.challenge) } };
    answers.push(expect(await this.call('POST', `/linking/request-consent/${consentRequestId}/pass-credential`, passed), 'accountsLinked', 'pass-credential'));
    return { consentRequestId, consentId: authenticated.body.consent.consentId, channel, account: account.address, answers };
  }

  /** The OTP the bank texted the user for this consent request. */
  private async otpOnPhone(bank: Bank, userId: string, consentRequestId: string): Promise<string> {
    const phone = await callApi(bank.outboundUrl, 'GET', `/simulator/users/${encodeURIComponent(userId)}/messages`);
    const message = phone.body?.messages?.find((candidate: { consentRequestId: string }) => candidate.consentRequestId === consentRequestId);
    if (!message) throw new Error(`no OTP on ${userId}'s phone for ${consentRequestId}`);
    return message.otp;
  }

  /** Signs in at the bank's login page (the authUri), which sends the user back to the PISP's callbackUri with the token. */
  private async signInAt(authUri: string): Promise<string> {
    const response = await fetch(authUri, { redirect: 'manual' });
    const back = response.headers.get('location');
    const token = back ? new URL(back).searchParams.get('token') : null;
    if (!token) throw new Error(`the login page at ${authUri} answered ${response.status} without sending the user back with a token`);
    return token;
  }

  /**
   * A payment of `amount` USD from a linked account to the party with MSISDN `payee`: party lookup, initiate, then the
   * user's decision (signed with the credential, or REJECTED). Stops at the first call that does not go as Document 1's
   * happy path would, and returns it as the outcome.
   */
  async pay(from: { bank: string; account: string }, payee: string, amount: string, decision: Credential | 'REJECTED'): Promise<Payment> {
    const transactionRequestId = crypto.randomUUID();
    const answers: Answer[] = [];
    const done = (outcome: Answer) => ({ transactionRequestId, answers, outcome });
    const lookup = await this.call('POST', '/thirdpartyTransaction/partyLookup', {
      transactionRequestId,
      payee: { partyIdType: 'MSISDN', partyIdentifier: payee },
    });
    answers.push(lookup);
    if (lookup.body?.currentState !== 'partyLookupSuccess') return done(lookup);
    const initiate = await this.call('POST', `/thirdpartyTransaction/${transactionRequestId}/initiate`, {
      payee: lookup.body.party,
      payer: { partyIdType: 'THIRD_PARTY_LINK', partyIdentifier: from.account, fspId: from.bank },
      amountType: 'SEND',
      amount: { amount, currency: 'USD' },
      transactionType: { scenario: 'TRANSFER', initiator: 'PAYER', initiatorType: 'CONSUMER' },
      expiration: new Date(Date.now() + 60_000).toISOString(),
    });
    answers.push(initiate);
    if (initiate.body?.currentState !== 'authorizationReceived') return done(initiate);
    const { challenge } = initiate.body.authorization;
    const authorizationResponse =
      decision === 'REJECTED'
        ? { responseType: 'REJECTED' }
        : decision === 'GENERIC'
          ? { responseType: 'ACCEPTED', signedPayload: { signedPayloadType: 'GENERIC' } }
          : { responseType: 'ACCEPTED', signedPayload: { signedPayloadType: 'FIDO', fidoSignedPayload: decision.assert(challenge) } };
    const approved = await this.call('POST', `/thirdpartyTransaction/${transactionRequestId}/approve`, { authorizationResponse });
    answers.push(approved);
    return done(approved);
  }
}
