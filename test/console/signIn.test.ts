import crypto from 'node:crypto';
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { loadConfig } from '../../activities/shared/platform/config';
import { AdminHarness, startAdmin } from '../helpers/adminHarness';
import { launchChromium } from '../helpers/chromium';
import { uniqueName } from '../helpers/database';
import { TestIdentityProvider, HUB_AT_PROVIDER } from '../helpers/identityProvider';

// Signing in to the console with OpenID Connect, in a real browser (Debian's Chromium, driven by playwright-core),
// at a real OpenID Provider (oidc-provider) the test starts: the authorization code flow with PKCE, the console a
// public client that exchanges the code itself. Serial: the steps share one browser and its session at the provider.

const AUDIENCE = HUB_AT_PROVIDER.audience;
const ADMIN_SECRET = crypto.randomBytes(24).toString('base64url');

let provider: TestIdentityProvider;
let hub: AdminHarness;
let browser: Browser;
let page: Page;
let participant: string;
/** What Chromium refused the page under the admin API's Content-Security-Policy, over every step. */
const violations: string[] = [];
/** The sign-ins the page reported to the hub (POST /console/signIn), which the audit trail records. */
const signIns: string[] = [];

test.before(async () => {
  provider = await TestIdentityProvider.listen({
    ...HUB_AT_PROVIDER,
    accounts: { olu: { roles: ['operator', 'finance'] }, vic: { roles: ['viewer'] }, gus: { roles: ['guest'] } },
  });
  hub = await startAdmin(undefined, {
    access: loadConfig({
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: 'hub-console',
      OIDC_AUDIENCE: AUDIENCE,
      OIDC_RESOURCE: AUDIENCE,
      OIDC_SCOPES: 'openid profile hub',
      OIDC_PROVIDER_NAME: 'Scheme login',
      ADMIN_API_TOKENS: `ops:admin:${ADMIN_SECRET}`,
    }).adminAccess,
  });
  await provider.allowConsole(hub.url);
  participant = uniqueName();
  const created = await fetch(`${hub.url}/participants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_SECRET}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: participant, currency: 'USD' }),
  });
  if (created.status !== 200) throw new Error(`participant not created: ${created.status}`);
  browser = await launchChromium(process.env.CHROMIUM_PATH);
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/.test(message.text())) violations.push(message.text());
  });
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/console/signIn') signIns.push(request.url());
  });
});

test.after.always(async () => {
  await browser?.close();
  await hub?.close();
  await provider?.close();
});

/** Signs `login` in at the provider's page, from the console's sign-in screen. */
async function signInAtProvider(login: string): Promise<void> {
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByRole('button', { name: 'Sign in with Scheme login' }).click();
  await page.waitForURL(`${provider.issuer}/**`);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('correct horse battery staple');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.waitForURL(`${hub.url}/console/**`);
}

test.serial('the operator signs in at the identity provider and comes back to the console signed in, named in its header, and sees participants', async (t) => {
  await page.goto(`${hub.url}/console#/participants`);
  await signInAtProvider('olu');
  await page.getByRole('heading', { name: 'Participants' }).waitFor();
  await page.locator(`tr[data-participant="${participant}"]`).waitFor();
  t.is(await page.locator('#who .name').textContent(), 'olu');
  t.is(await page.locator('#who .roles').textContent(), 'operator, finance');
  t.is(page.url(), `${hub.url}/console/#/participants`, 'the code and state left the address bar, the page the operator was on is back');
  const kept = await page.evaluate(() => Object.keys((globalThis as any).sessionStorage).sort());
  t.deepEqual(kept, ['hub-console-caller', 'hub-console-id-token', 'hub-console-token', 'hub-console-token-kind'], 'the PKCE verifier and state are gone');
  t.is(signIns.length, 1, 'the sign-in was reported to the hub once');
  await page.reload();
  await page.locator(`tr[data-participant="${participant}"]`).waitFor();
  t.is(signIns.length, 1, 'and not again on a reload');
});

test.serial('the page allows the token exchange with the provider and nothing more: its CSP names the issuer in connect-src only', async (t) => {
  await page.goto('about:blank');
  const response = await page.goto(`${hub.url}/console/#/participants`);
  await page.locator(`tr[data-participant="${participant}"]`).waitFor();
  t.is(
    await response!.headerValue('content-security-policy'),
    `default-src 'self'; connect-src 'self' ${provider.issuer}; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
  );
  t.deepEqual(violations, []);
});

test.serial(
  'an access token that expires sends the operator back to the sign-in, saying why; while the session at the provider lasts, signing in again asks nothing',
  async (t) => {
    const now = Math.floor(Date.now() / 1000);
    const expired = await provider.sign({ sub: 'olu', preferred_username: 'olu', roles: ['operator'], iat: now - 900, exp: now - 300 });
    await page.evaluate((value) => (globalThis as any).sessionStorage.setItem('hub-console-token', value), expired);
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    t.regex((await page.getByRole('alert').first().textContent())!, /The sign-in was refused: Forbidden: the access token expired at /);
    t.is(await page.locator('#who').textContent(), '');
    await page.getByRole('button', { name: 'Sign in with Scheme login' }).click();
    await page.locator(`tr[data-participant="${participant}"]`).waitFor();
    t.is(await page.locator('#who .name').textContent(), 'olu');
  },
);

test.serial('signing out ends the session at the provider too; a viewer signed in then is told a trace is not allowed, and stays signed in', async (t) => {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(`${provider.issuer}/**`);
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await page.waitForURL(`${hub.url}/console/**`);
  // The provider asks again: the next person at this browser is not olu.
  await signInAtProvider('vic');
  // Back at the console's first page, as signing out left it.
  await page.getByRole('heading', { name: 'The scheme at a glance' }).waitFor();
  t.is(await page.locator('#who .name').textContent(), 'vic');
  t.is(await page.locator('#who .roles').textContent(), 'viewer');
  const transferId = crypto.randomUUID();
  await page.goto(`${hub.url}/console/#/transfers/${transferId}`);
  const refusal = page.getByRole('alert');
  await refusal.waitFor();
  t.is(await refusal.textContent(), "Not allowed: Forbidden: vic has role viewer, which does not allow reading messages and parties' data");
  t.is(await page.getByRole('heading', { name: `Transfer ${transferId}` }).count(), 1, 'on the trace page');
  t.is(await page.getByRole('heading', { name: 'Sign in' }).count(), 0, 'not sent back to the sign-in');
  await page.goto(`${hub.url}/console/#/participants/${participant}`);
  const cap = page.locator('form[data-form="limit"]');
  await cap.getByLabel('Currency').fill('USD');
  await cap.getByLabel('Cap').fill('100');
  await cap.getByRole('button', { name: 'Set cap' }).click();
  await page.getByText('Refused: Forbidden: vic has role viewer, which does not allow changing limits').waitFor();
  t.is(await page.getByRole('heading', { name: 'Sign in' }).count(), 0, 'a refused change is said where it was asked for');
  t.deepEqual(violations, []);
});

test.serial('a person the provider knows but whose token gives no hub role is refused at the sign-in, and told why', async (t) => {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await page.waitForURL(`${hub.url}/console/**`);
  await signInAtProvider('gus');
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  t.is(await page.getByRole('alert').first().textContent(), 'The sign-in was refused: Forbidden: gus has no role at this hub: its roles claim names none.');
  t.is(await page.locator('#who').textContent(), '');
  t.is(await page.evaluate(() => (globalThis as any).sessionStorage.getItem('hub-console-token')), null, 'the refused token is not kept');
});
