/**
 * The audit trail as the admin API shows it (GET /audit, GET /audit/verify) and the console reads it: who did what,
 * when, from where, with what outcome. Shared by the hub and the console's scripts, so it imports nothing.
 */

/** One entry: a change, a decision, a sign-in or a refused attempt; `hash` chains it to the entry before. */
export interface AuditEntry {
  /** 1, 2, 3… with no gap: a deleted entry leaves one. */
  sequence: number;
  at: string;
  /** Who: the caller's name, roles and kind of credential, where authentication established them (none for a refused attempt without one). */
  actor: string | null;
  roles: string[];
  credential: string | null;
  /** What: a readable name (docs/security.md, "Audit trail"), the HTTP method, the route's template and the path called. */
  action: string;
  method: string | null;
  route: string | null;
  target: string | null;
  /** The permission the route declares. */
  permission: string | null;
  /** SHA-256 (hex) of the request body as the hub read it; never the body itself, which may hold parties' data. */
  bodyDigest: string | null;
  /** What the change touched, read before the handler and after it, where it matters (limits, endpoints, activation). */
  before: unknown;
  after: unknown;
  /** The outcome: the HTTP status, the FSPIOP errorCode of a refusal, the approval a held change waits in, a note. */
  status: number | null;
  errorCode: string | null;
  approvalId: string | null;
  detail: string | null;
  /** From where: the caller's address and user agent. */
  address: string | null;
  userAgent: string | null;
  /** What an activity appended it under, so a retry appends nothing more (an approval's `approval/<id>/performed`). */
  reference: string | null;
  previousHash: string;
  hash: string;
}

/** A page of the trail, newest first; `nextCursor` asks for the older entries that follow. */
export interface AuditPage {
  entries: AuditEntry[];
  nextCursor?: string;
}

/**
 * The chain checked from the first entry: `entries` is how many were found intact, and where one is not, the first
 * broken link (the sequence of the entry that was edited, or that is missing) and why.
 */
export type AuditVerification = { ok: true; entries: number } | { ok: false; entries: number; brokenAt: { sequence: number; reason: string } };
