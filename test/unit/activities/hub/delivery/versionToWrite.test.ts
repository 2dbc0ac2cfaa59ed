import test from 'ava';
import { versionToWrite } from '../../../../../activities/hub/delivery/directory';

// The version of a message the hub writes itself (an error, a PATCH, an answer from its records): one its addressee reads.

test('an addressee that writes the conversation’s major version gets the conversation’s version, the minor the requester asked for', (t) => {
  t.is(versionToWrite('1.1', '1.0'), '1.0', 'a 1.1 DFSP reads 1.0');
  t.is(versionToWrite('1.0', '1.1'), '1.1');
  t.is(versionToWrite('2.0', '2.0'), '2.0');
});

test('an addressee that writes another major version gets its own: a 1.1 payee of a 2.0 payer, a 2.0 payer of a 1.1 payee', (t) => {
  t.is(versionToWrite('1.1', '2.0'), '1.1');
  t.is(versionToWrite('2.0', '1.1'), '2.0');
  t.is(versionToWrite('2.0', '1.0'), '2.0');
});

test('an addressee never heard from gets the conversation’s version, that of the request it was sent', (t) => {
  t.is(versionToWrite(null, '2.0'), '2.0');
  t.is(versionToWrite(undefined, '1.1'), '1.1');
});
