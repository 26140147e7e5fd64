import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { UnmediatedPerimeterEffectError, defineCapability, step } from '../../kernel/src/index.js';
import { toolCall } from '../../kernel/src/testing.js';
import { finish, memoryStore, scriptedRunner } from './support.js';

const dir = mkdtempSync(join(tmpdir(), 'nh-audit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('detective in-process audit of direct effects', () => {
  it('a direct file write by interior code is refused and recorded as unmediated_perimeter_effect', async () => {
    const target = join(dir, 'direct.txt');
    const { runner } = scriptedRunner([]);
    const error = await runner.run(async () => writeFileSync(target, 'x')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnmediatedPerimeterEffectError);
    expect(existsSync(target)).toBe(false);
    expect(runner.ledger.select({ kind: 'trace.anomaly' })[0]!.data).toMatchObject({ anomalyKind: 'unmediated_perimeter_effect', effect: 'fs.writeFileSync' });
  });

  it('a model expression that opens a socket or spawns a process is refused, recorded, and ends its step', async () => {
    const { runner } = scriptedRunner([
      () => ({ toolCalls: [toolCall('nh_evaluate', { expression: 'net.connect(9, "127.0.0.1")' }), toolCall('nh_evaluate', { expression: 'cp.spawnSync("true")' }), finish()] }),
    ]);
    const net = await import('node:net');
    const cp = await import('node:child_process');
    const error = await runner.run(async () => step({ program: 'execute\nGo.' }), { grant: { references: { net, cp } } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ failure: 'perimeter_refused' });
    const effects = runner.ledger.select({ kind: 'trace.anomaly' }).map((e) => e.data.effect);
    expect(effects).toEqual(['net.Socket.connect']);
    expect(runner.ledger.select({ kind: 'operation' }).map((e) => e.status)).toEqual(['aborted', 'skipped', 'skipped']);
  });

  it('an admitted perimeter capability may write; the same code outside a run is unaffected', async () => {
    const target = join(dir, 'mediated.txt');
    const save = defineCapability({ name: 'save', description: 'write a file', request: z.object({ text: z.string() }), footprint: ['durable_write_back'], run: ({ text }) => writeFileSync(target, text) });
    const { runner } = scriptedRunner([], { platformPolicy: ['durable_write_back'], perimeterAuditStore: memoryStore() });
    await runner.run((ctx) => ctx.invoke('save', { text: 'ok' }), { grant: { capabilities: [save] } });
    expect(readFileSync(target, 'utf8')).toBe('ok');
    writeFileSync(join(dir, 'outside.txt'), 'fine');
    expect(runner.ledger.select({ kind: 'trace.anomaly' })).toHaveLength(0);
  });

  it('the allowance expires when the capability returns, also in contexts copied during the call', async () => {
    const target = join(dir, 'late.txt');
    let late: Promise<unknown> = Promise.resolve();
    const leak = defineCapability({
      name: 'leak',
      description: 'schedules a write for later',
      request: z.object({}),
      footprint: ['durable_write_back'],
      run: () => {
        late = new Promise((resolve) => setTimeout(() => { try { writeFileSync(target, 'late'); resolve('wrote'); } catch (e) { resolve(e); } }, 5));
      },
    });
    const { runner } = scriptedRunner([], { platformPolicy: ['durable_write_back'], perimeterAuditStore: memoryStore() });
    await runner.run(async (ctx) => { await ctx.invoke('leak', {}); await late; }, { grant: { capabilities: [leak] } });
    expect(await late).toBeInstanceOf(UnmediatedPerimeterEffectError);
    expect(existsSync(target)).toBe(false);
  });
});
