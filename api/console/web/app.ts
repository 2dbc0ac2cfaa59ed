import { alarmsView } from './alarms.js';
import { get, SignInNeeded, token } from './api.js';
import { h, show } from './dom.js';
import { homeView } from './home.js';
import { participantsView, participantView } from './participants.js';
import { settlementView } from './settlement.js';
import { conversationView, traceView, transfersView, type WorkflowLink } from './transfers.js';
import type { View } from './view.js';

/** How often a shown page brings its figures up to date: while a settlement runs or payments flow, the operator sees them move. */
const REFRESH_MS = 2_000;

const main = document.querySelector('main')!;
const status = document.querySelector('#status')!;
let current: { view: View; timer?: number } | undefined;
let workflowLink: WorkflowLink = () => undefined;
let hubName = 'Hub';

/**
 * The page the address names: #/home[?currency=XXX] (an empty address's too), #/participants[/name], #/transfers[?search],
 * #/transfers/{id}, #/conversations/{resource}/{id}, #/settlement, #/alarms.
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
  if (page === 'alarms') return alarmsView();
  if (page === 'home' || page === '') return homeView(new URLSearchParams(query));
  return participantsView(hubName);
}

async function refresh(view: View): Promise<void> {
  try {
    await view.refresh();
    show(status, `Updated ${new Date().toLocaleTimeString()}`);
  } catch (error) {
    if (error instanceof SignInNeeded) return signIn();
    show(status, `Could not update: ${(error as Error).message}`);
  }
}

async function open(): Promise<void> {
  if (current?.timer) clearInterval(current.timer);
  const view = viewOf(location.hash);
  show(main, view.element);
  current = { view };
  document.querySelectorAll('nav a').forEach((link) => link.classList.toggle('here', location.hash.startsWith(link.getAttribute('href')!)));
  await refresh(view);
  if (current?.view === view) current.timer = window.setInterval(() => void refresh(view), REFRESH_MS);
}

/** Asks for the admin API's bearer token; with client certificates or on an open loopback hub none is needed. */
function signIn(): void {
  if (current?.timer) clearInterval(current.timer);
  current = undefined;
  const input = h('input', { name: 'token', type: 'password', autocomplete: 'off', required: true, 'aria-label': 'Admin API token' }) as HTMLInputElement;
  show(
    main,
    h(
      'form',
      {
        class: 'sign-in',
        onsubmit: (event: Event) => {
          event.preventDefault();
          token.set(input.value.trim());
          void start();
        },
      },
      h('h1', {}, 'Sign in'),
      h('p', {}, 'This hub asks for a token of its admin API (ADMIN_API_TOKENS).'),
      input,
      h('button', { type: 'submit' }, 'Sign in'),
      token.get() ? h('p', { class: 'outcome' }, 'That token was refused.') : '',
    ),
  );
  token.clear();
}

async function start(): Promise<void> {
  try {
    const settings = await get<{ temporalUiUrl?: string; namespace: string; hub: string }>('/console/settings');
    hubName = settings.hub;
    workflowLink = (workflowId) =>
      settings.temporalUiUrl && `${settings.temporalUiUrl}/namespaces/${encodeURIComponent(settings.namespace)}/workflows/${encodeURIComponent(workflowId)}`;
  } catch (error) {
    if (error instanceof SignInNeeded) return signIn();
    throw error;
  }
  await open();
}

window.addEventListener('hashchange', () => void open());
document.querySelector('#sign-out')!.addEventListener('click', () => {
  token.clear();
  signIn();
});
void start();
