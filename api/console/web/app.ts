import { alarmsView } from './alarms.js';
import { approvalsView } from './approvals.js';
import { auditView } from './audit.js';
import { get, NotAllowed, SignInNeeded, token } from './api.js';
import { h, show } from './dom.js';
import { homeView } from './home.js';
import { participantsView, participantView } from './participants.js';
import { reportsView } from './reports.js';
import { settlementView } from './settlement.js';
import { callerLabel, comeBack, identify, signInScreen, signOut } from './signIn.js';
import { conversationView, traceView, transfersView, type WorkflowLink } from './transfers.js';
import type { View } from './view.js';

/** How often a shown page brings its figures up to date: while a settlement runs or payments flow, the operator sees them move. */
const REFRESH_MS = 2_000;

const main = document.querySelector('main')!;
const status = document.querySelector('#status')!;
const who = document.querySelector('#who');
let current: { view: View; timer?: number; refused?: boolean } | undefined;
let workflowLink: WorkflowLink = () => undefined;
let hubName = 'Hub';

/**
 * The page the address names: #/home[?currency=XXX] (an empty address's too), #/participants[/name], #/transfers[?search],
 * #/transfers/{id}, #/conversations/{resource}/{id}, #/settlement, #/reports, #/alarms, #/approvals, #/audit[?search].
 */
function viewOf(hash: string): View {
  const [path, query = ''] = hash.replace(/^#/, '').split('?');
  const [, page = 'home', id, ...rest] = path.split('/').map(decodeURIComponent);
  // #/conversations/{resource}/{id}: the resource may be two segments (thirdpartyRequests/transactions).
  if (page === 'conversations' && rest.length > 0) return conversationView([id, ...rest.slice(0, -1)].join('/'), rest[rest.length - 1]);
  if (page === 'participants' && id) return participantView(id);
  if (page === 'transfers' && id) return traceView(id, workflowLink);
  if (page === 'transfers') return transfersView(new URLSearchParams(query));
  if (page === 'settlement') return settlementView();
  if (page === 'reports') return reportsView();
  if (page === 'alarms') return alarmsView();
  if (page === 'approvals') return approvalsView();
  if (page === 'audit') return auditView(new URLSearchParams(query));
  if (page === 'home' || page === '') return homeView(new URLSearchParams(query));
  return participantsView(hubName);
}

async function refresh(view: View): Promise<void> {
  try {
    await view.refresh();
    show(status, `Updated ${new Date().toLocaleTimeString()}`);
  } catch (error) {
    if (error instanceof SignInNeeded) return signIn(error);
    if (error instanceof NotAllowed) {
      // The operator's roles do not reach this page: said on it, and not asked again every few seconds.
      if (current?.view === view) {
        clearInterval(current.timer);
        current.refused = true;
      }
      show(view.element, view.element.querySelector('h1'), h('p', { class: 'outcome refused', role: 'alert' }, `Not allowed: ${error.message}`));
      show(status, 'Not allowed');
      return;
    }
    show(status, `Could not update: ${(error as Error).message}`);
  }
}

async function open(): Promise<void> {
  if (current?.timer) clearInterval(current.timer);
  const view = viewOf(location.hash);
  show(main, view.element);
  current = { view };
  // An empty address is the home page's (viewOf), and its link is marked as the page's.
  const here = location.hash.replace(/^#?\/?$/, '#/home');
  document.querySelectorAll('nav a').forEach((link) => link.classList.toggle('here', here.startsWith(link.getAttribute('href')!)));
  await refresh(view);
  if (current?.view === view && !current.refused) current.timer = window.setInterval(() => void refresh(view), REFRESH_MS);
}

/**
 * Asks the operator to sign in (signIn.ts): at the identity provider, or with the admin API's bearer token; with client
 * certificates or on an open loopback hub none is needed. `refused` is why the last credential was not taken; one
 * `fromProvider` failed on the way back from the identity provider, before the hub saw a token.
 */
function signIn(refused?: SignInNeeded, fromProvider = false): void {
  if (current?.timer) clearInterval(current.timer);
  current = undefined;
  if (who) show(who);
  const kind = token.get() ? token.kind() : fromProvider ? 'oidc' : undefined;
  show(
    main,
    signInScreen(kind && { reason: refused?.message ?? '', kind }, (value) => {
      token.set(value);
      void start();
    }),
  );
  token.clear();
}

async function start(): Promise<void> {
  try {
    await comeBack();
  } catch (error) {
    if (error instanceof SignInNeeded) return signIn(error, true);
    throw error;
  }
  try {
    const settings = await get<{ temporalUiUrl?: string; namespace: string; hub: string }>('/console/settings');
    hubName = settings.hub;
    workflowLink = (workflowId) =>
      settings.temporalUiUrl && `${settings.temporalUiUrl}/namespaces/${encodeURIComponent(settings.namespace)}/workflows/${encodeURIComponent(workflowId)}`;
    const caller = await identify();
    if (who) show(who, callerLabel(caller));
  } catch (error) {
    if (error instanceof SignInNeeded) return signIn(error);
    throw error;
  }
  await open();
}

window.addEventListener('hashchange', () => void open());
document.querySelector('#sign-out')!.addEventListener('click', () => {
  void signOut().then((away) => away || signIn());
});
void start();
