import type { ConsentRequestsPostRequest } from '../../../api/contracts/bodies';
import { Checked, thirdpartyError } from '../../../workflows/dfsp/thirdpartyErrors';
import type { LinkableAccount } from '../backend/thirdpartyBackend';

/** The actions this DFSP lets a PISP take on a linked account; it offers no statements to PISPs. */
export const SUPPORTED_ACTIONS: readonly string[] = ['ACCOUNTS_GET_BALANCE', 'ACCOUNTS_TRANSFER'];

/** The channels this DFSP authenticates its users on, in the order it prefers them when the PISP offers both. */
const CHANNELS = ['WEB', 'OTP'] as const;

/** A callbackUri the user may be sent back to after logging in: only https is trusted (Document 1, 6204). */
function trustedCallbackUri(uri: string | undefined): boolean {
  if (!uri) return false;
  try {
    return new URL(uri).protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * Document 1, "Errors": whether this DFSP takes a consent request for `userId`, whose accounts are `accounts`
 * (undefined: no such user, 6205). Scopes must name the user's own accounts with supported actions (6101); the WEB
 * channel needs a trusted callbackUri (6204); any other check (an account suspended) fails with 6104. On success,
 * the channel the user authenticates on.
 */
export function checkConsentRequest(request: ConsentRequestsPostRequest, accounts: LinkableAccount[] | undefined): Checked<{ channel: 'WEB' | 'OTP' }> {
  if (!accounts) return { ok: false, errorInformation: thirdpartyError('unknownUser', `no user ${request.userId}`) };
  const byAddress = new Map(accounts.map((account) => [account.address, account]));
  for (const scope of request.scopes) {
    if (!byAddress.has(scope.address)) {
      return { ok: false, errorInformation: thirdpartyError('unsupportedScopes', `${scope.address} is not an account of the user`) };
    }
    const unsupported = scope.actions.filter((action) => !SUPPORTED_ACTIONS.includes(action));
    if (unsupported.length > 0) return { ok: false, errorInformation: thirdpartyError('unsupportedScopes', `unsupported actions ${unsupported.join(', ')}`) };
  }
  const channel = CHANNELS.find((candidate) => (request.authChannels as string[]).includes(candidate));
  if (!channel) return { ok: false, errorInformation: thirdpartyError('consentRequestRejected', 'no supported authentication channel') };
  if (channel === 'WEB' && !trustedCallbackUri(request.callbackUri)) {
    return { ok: false, errorInformation: thirdpartyError('badCallbackUri', 'the WEB channel needs an https callbackUri') };
  }
  const inactive = request.scopes.find((scope) => !byAddress.get(scope.address)!.active);
  if (inactive) return { ok: false, errorInformation: thirdpartyError('consentRequestRejected', `account ${inactive.address} is not active`) };
  return { ok: true, channel };
}
