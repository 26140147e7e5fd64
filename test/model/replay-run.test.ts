import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentExecutor, CassetteDivergenceError, ReplayModelClient, run, scope } from '../../kernel/src/index.js';
import { recordSeed000, SEED_000_CASSETTE } from '../support/openai-record-seed-000.js';
import { normaliseRecords, recordingOversight, seed000, SEED_000_PROGRAM } from '../support/openai-seed-000.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'nh-replay-run-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Runs seed 000 (optionally with another program text) on a replaying client. */
async function replaySeed000(path: string, program = SEED_000_PROGRAM) {
  const replay = new ReplayModelClient(path);
  const s = seed000(program);
  const records = recordingOversight(s.inspectOperation);
  const result = await run(new AgentExecutor({ model: replay }), () =>
    scope({ taskReferences: { forbidden: s.forbidden }, oversight: records.oversight }, () => s.calculate({})),
  );
  return { result, replay, effects: s.effects, operations: records.operations, steps: records.steps };
}

describe('a recorded run replayed offline', () => {
  it('gives the same result and the same operation and step records, with no server running', async () => {
    const path = join(dir, 'seed-000.jsonl');
    const recorded = await recordSeed000(path);
    expect(recorded.result).toBe(2);
    expect(recorded.requests).toBe(2);

    const replayed = await replaySeed000(path);
    expect(replayed.result).toBe(2);
    expect(replayed.effects).toEqual([]);
    expect(replayed.replay.served).toBe(2);
    replayed.replay.assertExhausted();
    expect(normaliseRecords(replayed.operations)).toEqual(normaliseRecords(recorded.operations));
    expect(normaliseRecords(replayed.steps)).toEqual(normaliseRecords(recorded.steps));
    expect(replayed.operations.map((o) => o.status)).toEqual(['rejected', 'completed']);
  });

  it('neither the cassette nor the records hold the API key; the cassette holds only request/response pairs', async () => {
    const path = join(dir, 'seed-000.jsonl');
    const recorded = await recordSeed000(path);
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain('sk-recording-key-not-stored');
    expect(JSON.stringify([recorded.operations, recorded.steps])).not.toContain('sk-recording-key-not-stored');
    const lines = text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => Object.keys(l).sort())).toEqual([
      ['index', 'label', 'request', 'response'],
      ['index', 'label', 'request', 'response'],
    ]);
  });

  it('an edited program raises CassetteDivergenceError at the first request, naming the differing message', async () => {
    const path = join(dir, 'seed-000.jsonl');
    await recordSeed000(path);
    const edited = SEED_000_PROGRAM.replace('return it.', 'return it doubled.');
    const error = await replaySeed000(path, edited).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CassetteDivergenceError);
    const divergence = error as CassetteDivergenceError;
    expect(divergence.index).toBe(0);
    expect(divergence.field).toMatch(/^messages\[\d+\]\.content$/);
    expect(divergence.actual).toContain('return it doubled.');
    expect(divergence.expected).not.toContain('return it doubled.');
  });

  it('the checked-in seed 000 cassette replays offline to 2 (re-record after a deliberate prompt change)', async () => {
    const replayed = await replaySeed000(SEED_000_CASSETTE);
    expect(replayed.result).toBe(2);
    expect(replayed.operations.map((o) => [o.request.expression, o.status])).toEqual([
      ['forbidden()', 'rejected'],
      ['1 + 1', 'completed'],
    ]);
    replayed.replay.assertExhausted();
  });
});
