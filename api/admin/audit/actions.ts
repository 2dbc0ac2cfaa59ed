/**
 * The name an audit entry gives what was done, which GET /audit?action= finds: a readable name for each change the
 * admin and settlement APIs offer (docs/security.md, "Audit trail", lists them), else the method and the route's
 * template (`GET /participants`, for a refused read), else the method alone for a path no route serves.
 */
const ACTIONS: Record<string, string> = {
  'POST /participants': 'participant.create',
  'PUT /participants/:name': 'participant.activation',
  'POST /participants/:name/endpoints': 'endpoint.set',
  'POST /participants/:name/initialPositionAndLimits': 'limits.initial',
  'PUT /participants/:name/limits': 'limits.set',
  'POST /participants/:name/accounts': 'account.create',
  'PUT /participants/:name/accounts/:id': 'account.activation',
  'POST /participants/:name/accounts/:id': 'funds.move',
  'PUT /participants/:name/accounts/:id/transfers/:transferId': 'funds.outcome',
  'POST /participants/:name/accounts/:id/transfers/:transferId': 'funds.outcome',
  'PUT /participants/:name/jws': 'signatures.change',
  'POST /settlementModels': 'settlementModel.create',
  'PUT /settlementModels/:name': 'settlementModel.activation',
  'POST /v2/settlementWindows/:id': 'settlementWindow.close',
  'POST /v2/settlements': 'settlement.create',
  'PUT /v2/settlements/:id': 'settlement.update',
  'PUT /v2/settlements/:sid/participants/:pid': 'settlement.participant',
  'PUT /v2/settlements/:sid/participants/:pid/accounts/:aid': 'settlement.account',
  'POST /v2/settlements/:id/bankConfirmation': 'settlement.bankConfirmation',
  'PUT /approvals/:id': 'approval.decide',
  'POST /console/signIn': 'console.signIn',
};

export const actionOf = (method: string, template: string | undefined): string =>
  template === undefined ? `${method} (no route)` : (ACTIONS[`${method} ${template}`] ?? `${method} ${template}`);

/** Every name the table gives, for the docs' check. */
export const namedActions = (): Array<[string, string]> => Object.entries(ACTIONS);
