/**
 * Attack: reflection of the kernel's own signed messages. The iopub socket is a publisher any local process can
 * subscribe to without the key (ZeroMQ has no authentication there), and every message on it carries a valid
 * HMAC, since the kernel signed it with the session key. A local user who subscribes takes a kernel message (for example
 * the `comm_close` the kernel publishes when it refuses a comm, or a diagnostics `comm_msg`) and sends its exact
 * frames to the shell or control port. The signature verifies and the replay guard never saw it (it remembers
 * what was received, not what was sent), so the kernel acted on its own words as a client's request: the
 * `comm_close` closed the frontend's diagnostics comm. A message of the kernel's own session arriving on an input
 * channel is dropped before admission.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { admitMessage } from '../../kernel/src/server/zmq/message-guard.js';
import { decode, encode, Signer } from '../../kernel/src/server/zmq/wire.js';

const signer = new Signer('secret-key');
const kernelSession = randomUUID();

function header(session: string, msgType: string) {
  return { msg_id: randomUUID(), msg_type: msgType, username: 'kernel', session, date: new Date().toISOString(), version: '5.3' };
}

/** The frames as a subscriber received them from iopub (topic first), resent to a ROUTER with an identity. */
function reflect(msgType: string, content: object): Buffer[] {
  const published = encode([Buffer.from(`kernel.${kernelSession}.${msgType}`)], { header: header(kernelSession, msgType), parent_header: {}, metadata: {}, content }, signer);
  return [Buffer.from('attacker'), ...published.slice(1)];
}

describe('reflected kernel messages', () => {
  test('a comm_close or comm_msg the kernel published, sent back on shell or control, is dropped', () => {
    for (const channel of ['shell', 'control'] as const) {
      for (const [type, content] of [['comm_close', { comm_id: 'c1', data: {} }], ['comm_msg', { comm_id: 'c1', data: { request_id: null, diagnostics: [] } }], ['status', { execution_state: 'idle' }]] as const) {
        const decoded = decode(reflect(type, content), signer);
        expect(decoded.kind).toBe('ok');
        if (decoded.kind !== 'ok') continue;
        const admission = admitMessage(channel, decoded.message, kernelSession);
        expect(admission, `${type} on ${channel}`).toMatchObject({ kind: 'drop' });
        if (admission.kind === 'drop') expect(admission.reason).toMatch(/kernel's own/);
      }
    }
  });

  test("a client's comm_close with its own session is still admitted", () => {
    const frames = encode([Buffer.from('client')], { header: header(randomUUID(), 'comm_close'), parent_header: {}, metadata: {}, content: { comm_id: 'c1', data: {} } }, signer);
    const decoded = decode(frames, signer);
    expect(decoded.kind).toBe('ok');
    if (decoded.kind === 'ok') expect(admitMessage('shell', decoded.message, kernelSession).kind).toBe('ok');
  });
});
