/**
 * The revision of the conversation code a run was started for, set by the gateway in the run's memo when it starts a
 * conversation. A run started at a revision has every behaviour the patches of that revision guard and asks no patch
 * marker for them: each `patched()` a run asks records a marker and upserts the TemporalChangeVersion search
 * attribute, two more history events and one more visibility write on the hot path of every payment. Runs started
 * without the memo (by a gateway before it, or by anything else) ask the markers as they always did, so their
 * recorded histories replay unchanged.
 */
export const CODE_REVISION_MEMO = 'codeRevision';

/** The patches each revision took in, by ID; a revision's runs have these and every earlier revision's. */
export const PATCHES_OF_REVISION: ReadonlyArray<readonly string[]> = [
  [],
  // 1: messages tried first as local activities; an expired conversation closes in a workflow task of its own; a
  // transfer's State is searchable once it is decided, not while its funds are reserved.
  ['first-attempt-locally', 'expiry-closes-in-a-task-of-its-own', 'transfer-state-searchable-once-decided'],
];

export const CURRENT_CODE_REVISION = PATCHES_OF_REVISION.length - 1;

/** The memo a conversation is started with. */
export const codeRevisionMemo = (): Record<string, number> => ({ [CODE_REVISION_MEMO]: CURRENT_CODE_REVISION });

/** The revision that took `patchId` in, if any did. */
export function revisionOf(patchId: string): number | undefined {
  const revision = PATCHES_OF_REVISION.findIndex((patches) => patches.includes(patchId));
  return revision < 0 ? undefined : revision;
}
