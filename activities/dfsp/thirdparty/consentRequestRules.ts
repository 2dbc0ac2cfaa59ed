import { errorInformation } from '../../shared/contracts/errors';
import type { ConsentRequestsPostRequest } from '../../shared/contracts/bodies';
import type { Checked } from '../../shared/contracts/checked';
import type { AuthChannel, LinkableAccount } from '../backend/thirdpartyBackend';

/** The actions this DFSP lets a PISP take on a linked account; it offers no statements to PISPs. */
export const SUPPORTED_ACTIONS: readonly string[] = ['ACCOUNTS_GET_BALANCE', 'ACCOUNTS_TRANSFER'];

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
 * (undefined: no such user, 6205) and who can authenticate on `userChannels` (the bank's order of preference). Scopes
 * must name the user's own accounts with supported actions (6101). The DFSP picks the channel (Document 1): the
 * bank's first that the PISP offered; WEB sends the user back to the callbackUri, so without a trusted one WEB is
 * ruled out and OTP taken if the user can use it, and 6204 is the answer only when WEB was the one channel left. No
 * channel at all, or any other check (an account suspended), fails with 6104. On success, the channel.
 */
export function checkConsentRequest(
  request: ConsentRequestsPostRequest,
  accounts: LinkableAccount[] | undefined,
  userChannels: AuthChannel[],
): Checked<{ channel: AuthChannel }> {
  if (!accounts) return { ok: false, errorInformation: errorInformation('unknownUser', `no user ${request.userId}`) };
  const byAddress = new Map(accounts.map((account) => [account.address, account]));
  for (const scope of request.scopes) {
    if (!byAddress.has(scope.address)) {
      return { ok: false, errorInformation: errorInformation('unsupportedScopes', `${scope.address} is not an account of the user`) };
    }
    const unsupported = scope.actions.filter((action) => !SUPPORTED_ACTIONS.includes(action));
    if (unsupported.length > 0) return { ok: false, errorInformation: errorInformation('unsupportedScopes', `unsupported actions ${unsupported.join(', ')}`) };
  }
  const usable = userChannels.filter((candidate) => (request.authChannels as string[]).includes(candidate));
  const channel = usable.find((candidate) => candidate !== 'WEB' || trustedCallbackUri(request.callbackUri));
  if (!channel && usable.includes('WEB')) {
    return { ok: false, errorInformation: errorInformation('badCallbackUri', 'the WEB channel needs an https callbackUri') };
  }
  if (!channel) {
    const offered = request.authChannels.join(', ');
    return { ok: false, errorInformation: errorInformation('consentRequestRejected', `the user cannot authenticate on ${offered}`) };
  }
  const inactive = request.scopes.find((scope) => !byAddress.get(scope.address)!.active);
  if (inactive) return { ok: false, errorInformation: errorInformation('consentRequestRejected', `account ${inactive.address} is not active`) };
  return { ok: true, channel };
}
