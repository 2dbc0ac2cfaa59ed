import fs from 'node:fs';
import path from 'node:path';

/**
 * The PEM text of `<fspId>.pem` in a JWS_VERIFICATION_KEYS_DIRECTORY, laid out as Mojaloop's SDK reads it, or null
 * when there is none. A participant's name is its file's: nothing else in the directory (or outside it) is anyone's key.
 */
export async function directoryKey(directory: string | undefined, fspId: string): Promise<string | null> {
  if (!directory || path.basename(fspId) !== fspId || fspId.startsWith('.')) return null;
  try {
    return await fs.promises.readFile(path.join(directory, `${fspId}.pem`), 'utf-8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
