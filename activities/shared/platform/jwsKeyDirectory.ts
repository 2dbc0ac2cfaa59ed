import fs from 'node:fs';
import path from 'node:path';

/**
 * The PEM text of `<fspId>.pem` in a JWS_VERIFICATION_KEYS_DIRECTORY, laid out as Mojaloop's SDK reads it, or null
 * when there is none. A participant's name is its file's: nothing else in the directory (or outside it) is anyone's key.
 * A file that is there but cannot be read throws, saying which: its participant's messages are then refused (fail
 * closed) until an operator mends it, never taken unchecked.
 */
export async function directoryKey(directory: string | undefined, fspId: string): Promise<string | null> {
  if (!directory || path.basename(fspId) !== fspId || fspId.startsWith('.')) return null;
  try {
    return await fs.promises.readFile(path.join(directory, `${fspId}.pem`), 'utf-8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    throw new Error(`the key file of ${fspId} cannot be read (${code ?? (error as Error).message})`);
  }
}
