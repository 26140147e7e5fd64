import { describe, expect, it } from 'vitest';
import { UsageError, describeWebRequest, normalizeWebUrl, webUrlPolicy, type WebPolicyDecision } from '../../../kernel/src/index.js';

const judge = (policy: Parameters<typeof webUrlPolicy>[0], raw: string, hop = 0): WebPolicyDecision => webUrlPolicy(policy)(describeWebRequest(normalizeWebUrl(raw)!, 'GET', hop));
const reason = (d: WebPolicyDecision) => (d.kind === 'refuse' ? d.reason : 'allow');

describe('web URL policy over transport-normalised requests', () => {
  it('judges the normalised scheme and host, so case variants of an allowed destination are the same destination', () => {
    const policy = { schemes: ['HTTPS:'], hostnames: ['Example.COM'] };
    expect(reason(judge(policy, 'HTTPS://EXAMPLE.com/a'))).toBe('allow');
    expect(reason(judge(policy, 'https://example.com./a'))).toBe('allow');
    expect(reason(judge(policy, 'http://example.com/a'))).toBe('scheme');
    expect(reason(judge(policy, 'https://example.com.evil.test/'))).toBe('hostname');
  });

  it('compares internationalised hostnames in punycode form', () => {
    const policy = { schemes: ['https'], hostnames: ['bücher.example'] };
    expect(describeWebRequest(normalizeWebUrl('https://BÜCHER.example/')!, 'GET', 0).hostname).toBe('xn--bcher-kva.example');
    expect(reason(judge(policy, 'https://xn--bcher-kva.example/'))).toBe('allow');
    expect(reason(judge(policy, 'https://bucher.example/'))).toBe('hostname');
  });

  it('resolves default ports before checking an explicit port list', () => {
    const policy = { schemes: ['http', 'https'], hostnames: ['127.0.0.1'], ports: [443, 8080] };
    expect(describeWebRequest(normalizeWebUrl('https://127.0.0.1:443/')!, 'GET', 0).port).toBe(443);
    expect(reason(judge(policy, 'https://127.0.0.1/'))).toBe('allow');
    expect(reason(judge(policy, 'http://127.0.0.1/'))).toBe('port');
    expect(reason(judge(policy, 'http://127.0.0.1:8080/'))).toBe('allow');
  });

  it('treats IPv4 spellings as the dotted address they normalise to', () => {
    const policy = { schemes: ['http'], hostnames: ['127.0.0.1'] };
    expect(reason(judge(policy, 'http://2130706433/'))).toBe('allow');
    expect(reason(judge(policy, 'http://0x7f.1/'))).toBe('allow');
    expect(reason(judge(policy, 'http://localhost/'))).toBe('hostname');
  });

  it('matches patterns statelessly against the normalised hostname', () => {
    const policy = { schemes: ['https'], hostnames: [/(^|\.)example\.org$/g] };
    expect(reason(judge(policy, 'https://API.example.org/'))).toBe('allow');
    expect(reason(judge(policy, 'https://api.example.org/'))).toBe('allow');
    expect(reason(judge(policy, 'https://example.org.evil.test/'))).toBe('hostname');
  });

  it('refuses URLs that carry credentials', () => {
    expect(reason(judge({ schemes: ['https'], hostnames: ['example.com'] }, 'https://user:secret@example.com/'))).toBe('credentials-in-url');
  });

  it('rejects policy entries that are not hostnames or ports at definition time', () => {
    expect(() => webUrlPolicy({ schemes: ['https'], hostnames: ['example.com/path'] })).toThrow(UsageError);
    expect(() => webUrlPolicy({ schemes: ['https'], hostnames: ['example.com'], ports: [70_000] })).toThrow(UsageError);
  });
});
