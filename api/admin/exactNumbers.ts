import { Decimal } from '../../activities/hub/db/money';
import { HttpError } from '../../activities/shared/platform/httpError';

/** The strings (to skip: they may hold digits) and the numbers of a JSON text. */
const TOKENS = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/**
 * Refuses a JSON text holding a number that JSON.parse cannot read exactly. The admin API takes amounts and limits
 * as JSON numbers, as central-ledger's document has them, but JSON.parse reads each into a double, which keeps some
 * 15 significant digits: `1.00000000000000001` would arrive as 1, rounded before any rule could see the digits it
 * lost. Such a number is refused (3100) rather than taken as a neighbour; as a numeric string it is read as written.
 * Called on text JSON.parse accepted, where every digit outside a string belongs to a number.
 */
export function refuseInexactNumbers(text: string): void {
  for (const [token] of text.matchAll(TOKENS)) {
    if (token.startsWith('"')) continue;
    if (!new Decimal(token).equals(new Decimal(Number(token)))) {
      throw new HttpError(400, 'validationError', `${token.slice(0, 40)} has more digits than a JSON number holds; send it as a string`);
    }
  }
}
