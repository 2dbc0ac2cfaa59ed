// @peculiar/x509's dependency injection needs the Reflect metadata API loaded before it.
import 'reflect-metadata';
import {
  AuthorityKeyIdentifierExtension,
  BasicConstraintsExtension,
  ExtendedKeyUsage,
  ExtendedKeyUsageExtension,
  KeyUsageFlags,
  KeyUsagesExtension,
  SubjectAlternativeNameExtension,
  SubjectKeyIdentifierExtension,
  X509Certificate,
  X509CertificateGenerator,
} from '@peculiar/x509';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const HOUR = 3_600_000;

/** A certificate and its private key, PEM, with the files that hold them (the hub's settings take paths). */
export interface Issued {
  cert: string;
  key: string;
  certPath: string;
  keyPath: string;
}

const loopbackNames = () =>
  new SubjectAlternativeNameExtension([
    { type: 'ip', value: '127.0.0.1' },
    { type: 'dns', value: 'localhost' },
  ]);

type KeyPair = crypto.webcrypto.CryptoKeyPair;

const newKeys = () => crypto.webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']) as Promise<KeyPair>;

async function pemOfKey(key: crypto.webcrypto.CryptoKey): Promise<string> {
  const der = Buffer.from(await crypto.webcrypto.subtle.exportKey('pkcs8', key));
  return crypto.createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }).export({ format: 'pem', type: 'pkcs8' }).toString();
}

/**
 * A certificate authority for tests, as a scheme runs one (docs/security.md makes the same with openssl): it signs server
 * certificates for this machine (127.0.0.1, localhost) and client certificates whose subject CN names a participant.
 */
export class TestCa {
  private constructor(
    private readonly dir: string,
    private readonly keys: KeyPair,
    private readonly certificate: X509Certificate,
    readonly cert: string,
    /** The CA certificate's file: what a party that trusts this CA is given. */
    readonly certPath: string,
  ) {}

  static async create(name: string): Promise<TestCa> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${name}-`));
    const keys = await newKeys();
    const certificate = await X509CertificateGenerator.createSelfSigned({
      name: `CN=${name}`,
      keys,
      signingAlgorithm: ALGORITHM,
      notBefore: new Date(Date.now() - HOUR),
      notAfter: new Date(Date.now() + 24 * HOUR),
      extensions: [
        new BasicConstraintsExtension(true, 0, true),
        new KeyUsagesExtension(KeyUsageFlags.keyCertSign | KeyUsageFlags.cRLSign, true),
        await SubjectKeyIdentifierExtension.create(keys.publicKey),
      ],
    });
    const cert = certificate.toString('pem');
    const certPath = path.join(dir, 'ca.crt');
    fs.writeFileSync(certPath, cert);
    return new TestCa(dir, keys, certificate, cert, certPath);
  }

  /** A server certificate for this machine's loopback address and name. */
  server(name: string): Promise<Issued> {
    return this.issue(name, [ExtendedKeyUsage.serverAuth], [loopbackNames()]);
  }

  /** A server certificate for this machine that its holder also shows as a client: a Temporal service's, which calls the others. */
  peer(name: string): Promise<Issued> {
    return this.issue(name, [ExtendedKeyUsage.serverAuth, ExtendedKeyUsage.clientAuth], [loopbackNames()]);
  }

  /** A client certificate whose subject CN is `commonName`: for a participant, its FSPIOP-Source. */
  client(commonName: string): Promise<Issued> {
    return this.issue(commonName, [ExtendedKeyUsage.clientAuth]);
  }

  /** Deletes its files. */
  remove(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  private async issue(commonName: string, usages: ExtendedKeyUsage[], extensions: SubjectAlternativeNameExtension[] = []): Promise<Issued> {
    const keys = await newKeys();
    const certificate = await X509CertificateGenerator.create({
      serialNumber: crypto.randomBytes(8).toString('hex'),
      subject: `CN=${commonName}`,
      issuer: this.certificate.subject,
      notBefore: new Date(Date.now() - HOUR),
      notAfter: new Date(Date.now() + 24 * HOUR),
      signingAlgorithm: ALGORITHM,
      publicKey: keys.publicKey,
      signingKey: this.keys.privateKey,
      extensions: [
        new BasicConstraintsExtension(false, undefined, true),
        new KeyUsagesExtension(KeyUsageFlags.digitalSignature, true),
        new ExtendedKeyUsageExtension(usages),
        await AuthorityKeyIdentifierExtension.create(this.keys.publicKey),
        ...extensions,
      ],
    });
    const stem = path.join(this.dir, `${commonName}-${crypto.randomBytes(3).toString('hex')}`);
    const issued = { cert: certificate.toString('pem'), key: await pemOfKey(keys.privateKey), certPath: `${stem}.crt`, keyPath: `${stem}.key` };
    fs.writeFileSync(issued.certPath, issued.cert);
    fs.writeFileSync(issued.keyPath, issued.key, { mode: 0o600 });
    return issued;
  }
}
