import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { SMTPServer } from 'smtp-server';
import { Notification } from '../../activities/hub/db/entities';
import { MAX_ATTEMPTS } from '../../activities/hub/notifications/notifications';
import type { SetAsideEmail } from '../../activities/shared/contracts/trace';
import { sendNotifications } from '../../workflows';
import type { SimulatedDfsp } from '../helpers/dfsp';
import { FulfillingPayees } from '../helpers/fulfillingPayees';
import { closingWindowsInTurn, deferredNetModel, settleOpenWindow, type AdminCall } from '../helpers/settlementCycle';
import { HUB_ID, startSwitch, SwitchHarness } from '../helpers/switchHarness';

// Limits that warn: participants' e-mails (Document 3's NET_DEBIT_CAP_THRESHOLD_BREACH_EMAIL,
// NET_DEBIT_CAP_ADJUSTMENT_EMAIL and SETTLEMENT_TRANSFER_POSITION_CHANGE_EMAIL endpoints) sent to a real SMTP server the
// test runs. MUR is paid by no other test, so the settlement here holds this file's payments alone. The mail server
// refuses every address at refuses.example, as one does a mailbox that does not exist.

interface Mail {
  to: string;
  subject: string;
  text: string;
}

const CURRENCY = 'MUR';
/** The hub operator's address for alarms (the hub participant's own endpoint). */
const HUB_ADDRESS = 'operations@hub.example';
const mails: Mail[] = [];
/** The times the mail server refused each address. */
const refusals = new Map<string, number>();
/** BREACH_EMAIL_INTERVAL_MINUTES, as a scheme would leave it. */
const BREACH_EMAIL_INTERVAL_MINUTES = 60;
const HOUR_MS = 60 * 60_000;
let smtp: SMTPServer;
let hub: SwitchHarness;
let payments: FulfillingPayees;

/** A header of a raw message (unfolded). */
const header = (raw: string, name: string) => new RegExp(`^${name}: (.*(?:\\r?\\n[ \\t].*)*)`, 'im').exec(raw)?.[1].replace(/\r?\n[ \t]/g, ' ') ?? '';

/** A body as nodemailer encodes long lines (quoted-printable), decoded. */
const quotedPrintable = (text: string) => text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

test.before(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo({ address }, session, callback) {
      if (!address.endsWith('@refuses.example')) return callback();
      refusals.set(address, (refusals.get(address) ?? 0) + 1);
      callback(Object.assign(new Error(`5.1.1 <${address}>: mailbox unavailable`), { responseCode: 550 }));
    },
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf-8');
        mails.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address).join(','),
          subject: header(raw, 'Subject'),
          text: quotedPrintable(
            raw
              .split(/\r?\n\r?\n/)
              .slice(1)
              .join('\n'),
          ),
        });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  hub = await startSwitch({
    smtp: { url: `smtp://127.0.0.1:${port}`, from: 'hub@scheme.example', breachEmailIntervalMinutes: BREACH_EMAIL_INTERVAL_MINUTES },
    namespace: `notifications-${crypto.randomUUID()}`,
  });
  payments = new FulfillingPayees(hub);
  const registered = await hub.admin.call('POST', `/participants/${HUB_ID}/endpoints`, { type: 'NET_DEBIT_CAP_THRESHOLD_BREACH_EMAIL', value: HUB_ADDRESS });
  if (registered.status >= 300) throw new Error(`the hub's endpoint: ${JSON.stringify(registered.body)}`);
});

test.after.always(async () => {
  await hub?.close();
  await new Promise<void>((resolve) => (smtp ? smtp.close(resolve) : resolve()));
});

/** What the scheduled sender does: every queued e-mail sent, as the `notification-sender` schedule runs it. */
const sendQueued = () =>
  hub.worker.client.workflow.execute(sendNotifications, { taskQueue: hub.worker.taskQueue, workflowId: `notifications-${crypto.randomUUID()}` });

/**
 * The clock moved on by `ms` as the sender sees it: every e-mail's dates moved as far back, so a wait after a refusal
 * or an alarm's interval has passed, without the test waiting for it.
 */
const elapse = (ms: number) =>
  hub.services.db.transaction(async (manager) => {
    const back = (date: Date | null) => date && new Date(date.getTime() - ms);
    for (const row of await manager.find(Notification)) {
      const { createdDate, sentDate, notBefore, setAsideDate } = row;
      await manager.update(
        Notification,
        { id: row.id },
        { createdDate: back(createdDate)!, sentDate: back(sentDate), notBefore: back(notBefore), setAsideDate: back(setAsideDate) },
      );
    }
  });

async function dfsp(netDebitCap: number, address?: string): Promise<SimulatedDfsp> {
  const provisioned = await hub.provision({ currency: CURRENCY, netDebitCap, fundsIn: 10_000 });
  for (const type of ['NET_DEBIT_CAP_THRESHOLD_BREACH_EMAIL', 'NET_DEBIT_CAP_ADJUSTMENT_EMAIL', 'SETTLEMENT_TRANSFER_POSITION_CHANGE_EMAIL']) {
    if (address) await hub.admin.call('POST', `/participants/${provisioned.name}/endpoints`, { type, value: address });
  }
  return payments.fulfils(provisioned);
}

async function pay(payer: SimulatedDfsp, payee: SimulatedDfsp, amount: string): Promise<void> {
  const { state } = await payments.pay(payer, payee, amount, CURRENCY);
  if (state !== 'COMMITTED') throw new Error(`the transfer of ${amount} ended ${state}`);
}

const to = (address: string, subject: RegExp) => mails.filter((mail) => mail.to === address && subject.test(mail.subject));

test.serial('crossing the alarm threshold sends one e-mail per crossing; an adjustment and a settlement each send theirs', (t) =>
  closingWindowsInTurn(hub.services.db, async () => {
    const address = 'treasury@payer.example';
    const payer = await dfsp(100, address);
    const payee = await dfsp(10_000);
    await pay(payer, payee, '50');
    await pay(payer, payee, '45');
    await pay(payer, payee, '3');
    await sendQueued();
    const alarms = to(address, /^NET_DEBIT_CAP BREACH CONDITION REACHED$/);
    t.is(alarms.length, 1, 'one e-mail for one crossing of 90 (10% short of the cap of 100), none for the payments after it');
    t.regex(alarms[0].text, new RegExp(`Dear ${payer.name},`));
    t.regex(alarms[0].text, /5\.00% of the limit is left/, 'the share of the cap left when it crossed, as central-event-processor gives it');
    t.regex(alarms[0].text, /Your current position is 95 MUR/);
    const operators = to(HUB_ADDRESS, /^NET_DEBIT_CAP BREACH CONDITION REACHED$/).filter((mail) => mail.text.includes(payer.name));
    t.is(operators.length, 1, "the hub's operator gets its own copy at the hub's endpoint of the type");
    t.regex(operators[0].text, new RegExp(`${payer.name} has passed the alarm threshold`));

    const adjusted = await hub.admin.call('PUT', `/participants/${payer.name}/limits`, {
      currency: CURRENCY,
      limit: { type: 'NET_DEBIT_CAP', value: 200, alarmPercentage: 10 },
    });
    t.is(adjusted.status, 200, JSON.stringify(adjusted.body));
    await sendQueued();
    const adjustments = to(address, /^NET_DEBIT_CAP LIMIT ADJUSTMENT$/);
    t.is(adjustments.length, 1);
    t.regex(adjustments[0].text, /Your NET_DEBIT_CAP limit is now 200 MUR/);

    const admin: AdminCall = (method, path, body) => hub.admin.call(method, path, body);
    const settled = await settleOpenWindow(admin, await deferredNetModel(admin, CURRENCY));
    t.is(settled.state, 'SETTLED');
    await sendQueued();
    const moved = to(address, /^Settlement Position Change$/);
    t.is(moved.length, 1, JSON.stringify(mails.map((mail) => mail.subject)));
    t.regex(moved[0].text, /Your current position is 0 MUR/, 'the position the settlement left');

    // Settled, the position is back at zero: rising past 180 (10% short of the new cap of 200) is a crossing again,
    // told once the hour since the last alarm about this position has passed.
    await pay(payer, payee, '185');
    await elapse(HOUR_MS);
    await sendQueued();
    t.is(to(address, /BREACH CONDITION REACHED/).length, 2);
    t.is(to('treasury@payee.example', /./).length, 0, 'a participant without an address gets none');
    await sendQueued();
    t.is(to(address, /BREACH CONDITION REACHED/).length, 2, 'nothing is sent twice');
  }),
);

/** The operator sets a participant's Net Debit Cap, which queues an adjustment e-mail to it. */
async function adjust(participant: SimulatedDfsp, value: number): Promise<void> {
  const adjusted = await hub.admin.call('PUT', `/participants/${participant.name}/limits`, {
    currency: CURRENCY,
    limit: { type: 'NET_DEBIT_CAP', value, alarmPercentage: 10 },
  });
  if (adjusted.status !== 200) throw new Error(`the limit: ${JSON.stringify(adjusted.body)}`);
}

const setAsideFor = async (participant: SimulatedDfsp) =>
  ((await hub.admin.call('GET', '/notifications/setAside')).body as SetAsideEmail[]).filter((email) => email.to === participant.name);

test.serial('an e-mail the mail server refuses is tried once a run, set aside after its last try, and holds up none after it', async (t) => {
  const bounced = 'treasury@refuses.example';
  const refused = await dfsp(1000, bounced);
  const fine = await dfsp(1000, 'treasury@fine.example');
  await adjust(refused, 2000);
  await adjust(fine, 2000);
  await sendQueued();
  t.is(refusals.get(bounced), 1);
  t.is(to('treasury@fine.example', /^NET_DEBIT_CAP LIMIT ADJUSTMENT$/).length, 1, 'the e-mail queued after the refused one goes in the same run');
  await sendQueued();
  t.is(refusals.get(bounced), 1, 'the refused one waits before its next try');
  for (let run = 2; run <= MAX_ATTEMPTS; run++) {
    t.deepEqual(await setAsideFor(refused), [], `not set aside after ${run - 1} tries`);
    await adjust(fine, 2000 + run);
    await elapse(HOUR_MS);
    await sendQueued();
    t.is(refusals.get(bounced), run, 'one try a run');
    t.is(to('treasury@fine.example', /^NET_DEBIT_CAP LIMIT ADJUSTMENT$/).length, run, 'and the e-mails behind it go in the same run');
  }
  const [setAside, ...more] = await setAsideFor(refused);
  t.is(more.length, 0);
  t.like(setAside, {
    type: 'NET_DEBIT_CAP_ADJUSTMENT_EMAIL',
    subject: 'NET_DEBIT_CAP LIMIT ADJUSTMENT',
    about: refused.name,
    currency: CURRENCY,
    attempts: MAX_ATTEMPTS,
  });
  t.regex(setAside.lastError, /^550 5\.1\.1 <treasury@refuses\.example>: mailbox unavailable/, "the mail server's reply, for the operator to act on");
  await elapse(HOUR_MS);
  await sendQueued();
  t.is(refusals.get(bounced), MAX_ATTEMPTS, 'set aside, it is tried no more');
});

test.serial('reserving and releasing around the alarm threshold sends at most one alarm e-mail per participant and currency an hour', async (t) => {
  const address = 'treasury@swinging.example';
  const payer = await dfsp(100, address);
  const payee = await hub.provision({ currency: CURRENCY, netDebitCap: 10_000, fundsIn: 10_000 });
  payee.react(async (request) => {
    if (request.method !== 'POST' || request.path !== '/transfers') return;
    await hub.fspiop('PUT', `/transfers/${request.body.transferId}/error`, {
      source: payee.name,
      destination: payer.name,
      body: { errorInformation: { errorCode: '5104', errorDescription: 'Payee rejected the transfer' } },
    });
  });
  const swing = async () => {
    for (let i = 0; i < 4; i++) t.is((await payments.pay(payer, payee, '95', CURRENCY)).errorCode, '5104', 'reserved past 90, then released');
  };
  const alarms = () => to(address, /^NET_DEBIT_CAP BREACH CONDITION REACHED$/);
  const operators = () => to(HUB_ADDRESS, /^NET_DEBIT_CAP BREACH CONDITION REACHED$/).filter((mail) => mail.text.includes(`${payer.name} has passed`));
  await swing();
  await sendQueued();
  await swing();
  await sendQueued();
  t.is(alarms().length, 1, 'eight crossings within the hour: one alarm');
  t.is(operators().length, 1, "and one to the hub's operator");
  await elapse(HOUR_MS);
  await sendQueued();
  t.is(alarms().length, 2, 'the hour over, the alarm held back is sent');
  t.is(operators().length, 2);
  // Counted by address: on a database other test files share, their e-mails may be queued too.
  await sendQueued();
  t.is(alarms().length, 2, 'and none is left queued');
  t.is(operators().length, 2);
});

test.serial('an e-mail endpoint with more than one address is refused with 3100', async (t) => {
  const { name } = await hub.provision({ currency: CURRENCY, netDebitCap: 100, fundsIn: 100 });
  for (const value of [
    'treasury@payer.example, spy@other.example',
    'treasury@payer.example; spy@other.example',
    '"treasury@payer.example" <spy@other.example>',
  ]) {
    const answer = await hub.admin.call('POST', `/participants/${name}/endpoints`, { type: 'NET_DEBIT_CAP_THRESHOLD_BREACH_EMAIL', value });
    t.is(answer.status, 400, value);
    t.is(answer.body.errorInformation.errorCode, '3100', value);
  }
  t.deepEqual(
    ((await hub.admin.call('GET', `/participants/${name}/endpoints`)).body as Array<{ type: string }>).filter((endpoint) => endpoint.type.endsWith('_EMAIL')),
    [],
    'none was kept',
  );
});
