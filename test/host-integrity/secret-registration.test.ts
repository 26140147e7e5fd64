/**
 * Attack: model code registers a secret of its choosing, and every record the host writes from then on (this run's and
 * every later one's: the registry is process-wide) redacts that text. A model expression registering a piece of its own
 * text had the ledger's record of that very expression show `[redacted:…]` where its code was.
 * Routes: `nh.registerSecret`, `nh.registerEnvSecret` (any long environment value), and the model client's constructor
 * (which registers the key it is given). Each is refused to model code with a SecretRegistrationError and a
 * `secret_registration_from_model_code` anomaly; the operator still registers secrets.
 */
import { describe, expect, it } from 'vitest';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';
import { STEP_PLACES, evaluateInStep, modelCodeIn, placeName } from './model-code.js';

const finish = () => toolCall('nh_output', { result: { kind: 'pass' } });
const MARKER = 'EVIDENCE-OF-THE-ATTACK';

const ROUTES: Record<string, string> = {
  registerSecret: `nh.registerSecret('HIDE', '${MARKER}')`,
  registerEnvSecret: `nh.registerEnvSecret('HIDE', { HIDE: '${MARKER}' })`,
  'the model client constructor': `new nh.OpenAIModelClient({ apiKey: '${MARKER}', baseURL: 'http://127.0.0.1:9/v1' })`,
};

describe('attack: model code registering a secret, so that the records redact what it chose', () => {
  for (const place of STEP_PLACES) {
    for (const [route, call] of Object.entries(ROUTES)) {
      it(`${route}, from ${placeName(place)}: refused and recorded; nothing is redacted`, async () => {
        const code = modelCodeIn(place, `try { ${call}; return 'registered'; } catch (e) { return e.name; }`);
        const { events, previews } = await evaluateInStep(code, `'${MARKER} is plain text'`);
        expect(previews).toEqual(['"SecretRegistrationError"', JSON.stringify(`${MARKER} is plain text`)]);
        expect(nh.registeredSecretNames()).not.toContain('HIDE');
        expect(nh.registeredSecretNames()).not.toContain('OPENAI_API_KEY');
        expect(JSON.stringify(events)).not.toContain('[redacted:');
        const anomalies = events.filter((e) => e.kind === 'trace.anomaly');
        expect(anomalies.map((e) => e.status)).toEqual(['secret_registration_from_model_code']);
      });
    }
  }

  it('the operator registers a secret, and the records redact it', async () => {
    nh.registerSecret('OPERATOR_TOKEN', 'operator-token-value-123');
    const model = new ScriptedModel([() => ({ toolCalls: [toolCall('nh_evaluate', { expression: `'operator-token-value-123'` }), finish()] })]);
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }) });
    await runner.run(() => nh.step({ program: 'execute\nGo.' }));
    expect(nh.registeredSecretNames()).toContain('OPERATOR_TOKEN');
    const text = JSON.stringify(runner.ledger.select({ kind: 'operation' }));
    expect(text).toContain('[redacted:OPERATOR_TOKEN]');
    expect(text).not.toContain('operator-token-value-123');
  });
});
