import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId, type ModelMessage, type ModelRequest } from '../../kernel/src/core/index.js';
import { CassetteDivergenceError, RecordingModelClient, ReplayModelClient } from '../../kernel/src/model/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'nh-cassette-ids-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const tools = [{ name: 'nh_output', description: 'finish', parameters: { type: 'object' } }];

/** A conversation whose tool results carry runtime operation ids, as the agent executor's do. */
function conversation(ids: readonly string[]): ModelRequest {
  const messages: ModelMessage[] = [{ role: 'user', content: 'go' }];
  ids.forEach((id, i) => {
    messages.push({ role: 'assistant', content: null, toolCalls: [{ id: `c${i}`, name: 'nh_evaluate', arguments: '{}' }] });
    messages.push({ role: 'tool', toolCallId: `c${i}`, name: 'nh_evaluate', content: JSON.stringify({ status: 'failed', operation_id: id }) });
  });
  return { messages, tools, outputToolName: 'nh_output' };
}

async function recordWith(ids: readonly string[]): Promise<string> {
  const path = join(dir, 'ids.jsonl');
  const model = new ScriptedModel(() => ({
    toolCalls: [toolCall('nh_output', { result: { kind: 'raise', raise_operation_id: ids[ids.length - 1] } })],
  }));
  const recorder = new RecordingModelClient(model, path);
  await recorder.request(conversation(ids.slice(0, 1)));
  await recorder.request(conversation(ids));
  return path;
}

describe('runtime ids in replayed requests', () => {
  it('requests that differ only in runtime ids match, and recorded ids in responses become live ids', async () => {
    const recordedIds = [newId('op_'), newId('op_')];
    const path = await recordWith(recordedIds);
    const liveIds = [newId('op_'), newId('op_')];
    const replay = new ReplayModelClient(path);
    await replay.request(conversation(liveIds.slice(0, 1)));
    const response = await replay.request(conversation(liveIds));
    expect(JSON.parse(response.toolCalls[0]!.arguments)).toEqual({ result: { kind: 'raise', raise_operation_id: liveIds[1] } });
  });

  it('one recorded id standing for two different live ids is a divergence', async () => {
    const recordedId = newId('op_');
    const path = await recordWith([recordedId, newId('op_')]);
    const replay = new ReplayModelClient(path);
    await replay.request(conversation([newId('op_')]));
    await expect(replay.request(conversation([newId('op_'), newId('op_')]))).rejects.toMatchObject({
      kind: 'cassette-divergence',
      index: 1,
      field: 'ids',
    });
  });

  it('with volatileIds false, ids are compared verbatim', async () => {
    const path = await recordWith([newId('op_')]);
    const replay = new ReplayModelClient(path, { volatileIds: false });
    await expect(replay.request(conversation([newId('op_')]))).rejects.toBeInstanceOf(CassetteDivergenceError);
  });
});
