/**
 * Who may do what at the admin and settlement APIs: the roles a credential carries (a named token, an operator's
 * sign-in, a client certificate) and the permissions every route declares (api/admin/access/permissions.ts). Shared
 * by the gateway, the configuration and the approvals workflow, so it imports nothing.
 */

/** The kinds of change to the scheme that four eyes may hold for a second person (ADMIN_FOUR_EYES names them). */
export const CHANGE_GROUPS = ['participants', 'endpoints', 'limits', 'funds', 'settlementModels', 'settlements'] as const;
export type ChangeGroup = (typeof CHANGE_GROUPS)[number];

/**
 * What a route needs. `open`: nothing (probes, the console's files, its sign-in); `metrics`: Prometheus' scrape;
 * `read`: what the hub knows of participants, limits, positions, windows and settlements, without message bodies or
 * parties' data; `readMessages`: those too (traces, transactions); `decide`: a second person's answer to a held change;
 * `audit`: the audit trail; each change group: making that kind of change.
 */
export const PERMISSIONS = ['open', 'metrics', 'read', 'readMessages', 'decide', 'audit', ...CHANGE_GROUPS] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const OPERATOR_ROLES = ['viewer', 'operator', 'finance', 'admin', 'metrics'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

const READER: Permission[] = ['open', 'metrics', 'read', 'audit'];

/**
 * Least privilege: a viewer looks but sees no message bodies or parties' data; an operator runs participants, their
 * endpoints and limits; finance moves funds and settles; admin does everything; metrics scrapes (its token sits in
 * Prometheus' configuration, where more people can read it than may move money).
 */
export const ROLE_PERMISSIONS: Record<OperatorRole, readonly Permission[]> = {
  viewer: READER,
  operator: [...READER, 'readMessages', 'decide', 'participants', 'endpoints', 'limits'],
  finance: [...READER, 'readMessages', 'decide', 'funds', 'settlementModels', 'settlements'],
  admin: PERMISSIONS,
  metrics: ['open', 'metrics'],
};

export const roleAllows = (role: OperatorRole, permission: Permission): boolean => ROLE_PERMISSIONS[role].includes(permission);

export const isChangeGroup = (permission: Permission): permission is ChangeGroup => (CHANGE_GROUPS as readonly string[]).includes(permission);

/** How a caller proved who it is: a bearer token, a client certificate, an access token of the identity provider, or nothing (an open admin API on loopback). */
export type CredentialKind = 'token' | 'certificate' | 'oidc' | 'open';

/**
 * Who makes a request, as authentication found: named unless the credential names no one (a bare token, an open
 * API), with its roles (a token or certificate has one; a person signed in at the identity provider may hold several).
 */
export interface AdminCaller {
  name?: string;
  roles: OperatorRole[];
  credential: CredentialKind;
}

export const callerMay = (caller: Pick<AdminCaller, 'roles'>, permission: Permission): boolean => caller.roles.some((role) => roleAllows(role, permission));
