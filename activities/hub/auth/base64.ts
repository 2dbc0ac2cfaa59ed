const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/**
 * The bytes of a base64 or base64url text, padded or not; undefined for anything else. The third-party API is
 * loose here: its FIDO fields say "base64" and Mojaloop's PISP tooling sends standard base64 for them but base64url
 * for the credential `id` (the browser's own encoding), while BinaryString fields (GENERIC) are base64url. Node's
 * decoder reads both alphabets but silently skips stray characters, hence the check first.
 */
export function decodeBase64(text: string): Buffer | undefined {
  if (!BASE64.test(text) || text.replace(/=+$/, '').length % 4 === 1) return undefined;
  return Buffer.from(text, 'base64');
}
