import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { SMTPServer } from 'smtp-server';
import { sendNotifications } from '../../workflows';
import type { SimulatedDfsp } from '../helpers/dfsp';
import { FulfillingPayees } from '../helpers/fulfillingPayees';
import { closingWindowsInTurn, deferredNetModel, settleOpenWindow, type AdminCall } from '../helpers/settlementCycle';
import { HUB_ID, startSwitch, SwitchHarness } from '../helpers/switchHarness';

// Limits that warn: participants' e-mails (Document 3's NET_DEBIT_CAP_THRESHOLD_BREACH_EMAIL,
// NET_DEBIT_CAP_ADJUSTMENT_EMAIL and SETTLEMENT_TRANSFER_POSITION_CHANGE_EMAIL endpoints) sent to a real SMTP server the
// test runs. MUR is paid by no other test, so the settlement here holds this file's payments alone.

interface Mail {
  to: string;
  subject: string;
  text: string;
}

const CURRENCY = 'MUR';
/** The hub operator's address for alarms (the hub participant's own endpoint). */
const HUB_ADDRESS = 'operations@hub.example';
const mails: Mail[] = [];
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
  hub = await startSwitch({ smtp: { url: `smtp://127.0.0.1:${port}`, from: 'hub@scheme.example' }, namespace: `notifications-${crypto.randomUUID()}` });
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

    // Settled, the position is back at zero: rising past 180 (10% short of the new cap of 200) is a crossing again.
    await pay(payer, payee, '185');
    await sendQueued();
    t.is(to(address, /BREACH CONDITION REACHED/).length, 2);
    t.is(to('treasury@payee.example', /./).length, 0, 'a participant without an address gets none');
    t.is(await sendQueued(), 0, 'nothing is sent twice');
  }),
);
