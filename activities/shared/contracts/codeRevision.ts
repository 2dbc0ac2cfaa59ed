/**
 * The revision of the conversation code a run was started for, set by the gateway in the run's memo when it starts a
 * conversation. A run started at a revision has every behaviour the patches of that revision guard and asks no patch
 * marker for them: each `patched()` a run asks records a marker and upserts the TemporalChangeVersion search
 * attribute, two more history events and one more visibility write on the hot path of every payment. Runs started
 * without the memo (by a gateway before it, or by anything else) ask the markers as they always did, so their
 * recorded histories replay unchanged.
 */
export const CODE_REVISION_MEMO = 'codeRevision';

/** The patches of the conversation kit and the transfer that a revision took in, by the ID their markers carry. */
export const PATCHES = {
  /** Messages tried first as local activities (workflows/kit/firstAttemptLocally.ts). */
  firstAttemptLocally: 'first-attempt-locally',
  /** An expired conversation closes in a workflow task of its own (workflows/kit/conversation.ts). */
  expiryClosesOnItsOwn: 'expiry-closes-in-a-task-of-its-own',
  /** A transfer's State is searchable once it is decided, not while its funds are reserved (workflows/hub/transfer.ts). */
  transferStateOnceDecided: 'transfer-state-searchable-once-decided',
} as const;

/** The patches each revision took in; a revision's runs have these and every earlier revision's. */
export const PATCHES_OF_REVISION: ReadonlyArray<readonly string[]> = [
  [],
  [PATCHES.firstAttemptLocally, PATCHES.expiryClosesOnItsOwn, PATCHES.transferStateOnceDecided],
];

export const CURRENT_CODE_REVISION = PATCHES_OF_REVISION.length - 1;

/** The memo a conversation is started with. */
export const codeRevisionMemo = (): Record<string, number> => ({ [CODE_REVISION_MEMO]: CURRENT_CODE_REVISION });

/** The revision that took `patchId` in, if any did. */
export function revisionOf(patchId: string): number | undefined {
  const revision = PATCHES_OF_REVISION.findIndex((patches) => patches.includes(patchId));
  return revision < 0 ? undefined : revision;
}
