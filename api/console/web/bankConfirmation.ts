import { call, upload, type Answer } from './api.js';
import { h, show } from './dom.js';

type ErrorAnswer = { errorInformation?: { errorCode: string; errorDescription: string; extensionList?: { extension: Array<{ key: string; value: string }> } } };
type Outcome = { state?: string; approvalId?: string } & ErrorAnswer;

/**
 * Finalisation against the bank: the operator picks the settlement bank's confirmation (CSV, or JSON `{lines}`) and
 * uploads it (POST /v2/settlements/{id}/bankConfirmation). A refused file's problems are listed here, one a line, and
 * nothing moved; an applied one is told (SETTLED, or awaiting approval under four eyes) and the page read again.
 */
export function bankConfirmationForm(settlementId: number, act: (work: () => Promise<string>) => Promise<void>): HTMLElement {
  const file = h('input', { type: 'file', name: 'confirmation', accept: '.csv,.json,text/csv,application/json' }) as HTMLInputElement;
  const problems = h('ul', { class: 'problems', 'aria-label': 'Problems with the bank confirmation' });
  const submit = async (event: Event) => {
    event.preventDefault();
    const chosen = file.files?.[0];
    if (!chosen) return show(problems, h('li', {}, 'Choose the bank confirmation file first'));
    let answer: Answer<Outcome | undefined>;
    try {
      answer = await sent(settlementId, chosen.name, await chosen.text());
    } catch (error) {
      // Signed out, or not allowed: told where the page tells every action's refusal.
      return act(() => Promise.reject(error as Error));
    }
    const refusal = answer.body?.errorInformation;
    if (answer.status === 400 && refusal) {
      const listed = refusal.extensionList?.extension ?? [];
      return show(
        problems,
        listed.length > 0 ? listed.map(({ value }) => h('li', {}, value)) : h('li', {}, `${refusal.errorCode} ${refusal.errorDescription}`),
      );
    }
    show(problems);
    await act(async () => {
      if (answer.status === 202) return `Bank confirmation of settlement ${settlementId} awaiting approval ${answer.body?.approvalId} (see Approvals)`;
      if (answer.status !== 200) throw new Error(refusal ? `${refusal.errorCode} ${refusal.errorDescription}` : `answered ${answer.status}`);
      return `Settlement ${settlementId} → ${answer.body?.state}`;
    });
  };
  return h(
    'form',
    { class: 'bank-confirmation', 'data-form': 'bankConfirmation', onsubmit: submit },
    h('label', {}, 'Bank confirmation (CSV or JSON) ', file),
    ' ',
    h('button', { type: 'submit' }, 'Upload and settle'),
    problems,
  );
}

/** The file as JSON when it is JSON (by its name or its first character), else as the bank's CSV. */
function sent(settlementId: number, name: string, text: string): Promise<Answer<Outcome | undefined>> {
  const path = `/v2/settlements/${settlementId}/bankConfirmation`;
  if (/\.json$/i.test(name) || /^\s*\{/.test(text)) {
    try {
      return call<Outcome>('POST', path, JSON.parse(text));
    } catch {
      return Promise.resolve({ status: 400, body: { errorInformation: { errorCode: '3101', errorDescription: `${name} is not valid JSON` } } });
    }
  }
  return upload<Outcome>(path, text, 'text/csv');
}
