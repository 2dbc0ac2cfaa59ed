import test from 'ava';
import { encryptedFields } from '../../../../api/fspiop/encryption';
import type { FspiopRequest } from '../../../../api/fspiop/headers';

// Document 2, "Confidentiality: field encryption": a sender may encrypt fields end to end and name them in
// FSPIOP-Encryption. The switch passes the header on untouched; the fields it never reads (names, personal
// information, notes, authentication information) may then hold cipher text in place of what their schema says.

const entry = { encryptedKey: 'a2V5', protectedHeader: 'eyJhbGciOiJSU0EtT0FFUC0yNTYifQ', initializationVector: 'aXY', authenticationTag: 'dGFn' };
const headerNaming = (...fieldNames: unknown[]) => JSON.stringify({ encryptedFields: fieldNames.map((fieldName) => ({ fieldName, ...entry })) });
const requestWith = (encryption?: string) =>
  ({ resource: 'parties', source: 'payeefsp', version: '1.1', headers: encryption === undefined ? {} : { 'fspiop-encryption': encryption } }) as FspiopRequest;

test('the fields the switch does not read, as JSON pointers into the body', (t) => {
  t.deepEqual(encryptedFields(requestWith(headerNaming('party.personalInfo.dateOfBirth', 'party.name'))), ['/party/personalInfo/dateOfBirth', '/party/name']);
  t.deepEqual(encryptedFields(requestWith(headerNaming('note', 'authenticationInfo.authenticationValue'))), [
    '/note',
    '/authenticationInfo/authenticationValue',
  ]);
  t.deepEqual(encryptedFields(requestWith(headerNaming('payee.personalInfo'))), ['/payee/personalInfo'], 'a whole object');
});

test('a field the switch routes, checks or books by stays held to its schema, whatever the header names', (t) => {
  t.deepEqual(encryptedFields(requestWith(headerNaming('amount.amount', 'payee.partyIdInfo.fspId', 'ilpPacket', 'condition', 'party.name'))), ['/party/name']);
  t.deepEqual(encryptedFields(requestWith(headerNaming('payer.nameless'))), [], 'a name only like a confidential one');
});

test('without the header, or with one that cannot be read, no field is exempt: the recipient refuses it, not the switch', (t) => {
  t.deepEqual(encryptedFields(requestWith()), []);
  for (const header of ['not json', '[]', 'null', '{"encryptedFields":{}}', '{"encryptedFields":[null,{"fieldName":3},{"fieldName":""}]}', headerNaming()]) {
    t.deepEqual(encryptedFields(requestWith(header)), [], header);
  }
});
