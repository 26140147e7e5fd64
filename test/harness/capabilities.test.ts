import { describe, expect, it } from 'vitest';
import {
  CapabilityRefusedError,
  GrantWideningError,
  NaturalExecutionError,
  SqlitePerimeterAuditStore,
  defineCapability,
  step,
  type PerimeterAuditStore,
} from '../../kernel/src/index.js';
import { toolCall } from '../../kernel/src/testing.js';
import { finish, memoryStore, scriptedRunner, trackedCapability } from './support.js';
import { mkdtempSync } from 'node:fs';
import { z } from 'zod';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('capabilities through the host gateway', () => {
  it('a destructive capability without grant is refused and recorded, and its body never runs', async () => {
    const { capability, calls } = trackedCapability('wipe', ['destructive']);
    const { runner } = scriptedRunner([], { platformPolicy: ['destructive'], perimeterAuditStore: memoryStore() });
    const error = await runner.run((ctx) => ctx.invoke('wipe', { target: '/' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CapabilityRefusedError);
    expect((error as CapabilityRefusedError).reason).toBe('not-granted');
    expect(calls).toEqual([]);
    expect(runner.ledger.select({ kind: 'capability.refused' })[0]).toMatchObject({ status: 'not-granted', subjectId: 'wipe' });
    void capability;
  });

  it('a footprint outside the effective policy is rejected before the body', async () => {
    const { capability, calls } = trackedCapability('send', ['egress']);
    const { runner } = scriptedRunner([], { platformPolicy: ['egress'], perimeterAuditStore: memoryStore() });
    const error = await runner.run((ctx) => ctx.invoke('send', { target: 'x' }), { grant: { capabilities: [capability] }, policy: [] }).catch((e: unknown) => e);
    expect((error as CapabilityRefusedError).reason).toBe('footprint-outside-policy');
    expect(calls).toEqual([]);
  });

  it('a failing audit store means the effect is never attempted', async () => {
    const { capability, calls } = trackedCapability('send', ['egress']);
    const broken: PerimeterAuditStore = { durable: true, recordAttempt: () => { throw new Error('disk full'); }, recordCompletion: () => undefined, get: () => undefined, list: () => [], close: () => undefined };
    const { runner } = scriptedRunner([], { platformPolicy: ['egress'], perimeterAuditStore: broken });
    const error = await runner.run((ctx) => ctx.invoke('send', { target: 'x' }), { grant: { capabilities: [capability] } }).catch((e: unknown) => e);
    expect((error as CapabilityRefusedError).reason).toBe('audit-store-failed');
    expect(calls).toEqual([]);
  });

  it('a perimeter effect refused because its attempt could not be recorded ends the model\'s Natural execution (a rejected perimeter effect is terminal)', async () => {
    const { capability, calls } = trackedCapability('send', ['egress']);
    const broken: PerimeterAuditStore = { durable: true, recordAttempt: () => { throw new Error('disk full'); }, recordCompletion: () => undefined, get: () => undefined, list: () => [], close: () => undefined };
    const { runner, model } = scriptedRunner([() => ({ toolCalls: [toolCall('send', { target: 'x' }), toolCall('nh_evaluate', { expression: '1' })] }), () => ({ toolCalls: [finish()] })], { platformPolicy: ['egress'], perimeterAuditStore: broken });
    const error = await runner.run(async () => step({ program: 'execute\nSend it.' }), { grant: { capabilities: [capability] } }).catch((e: unknown) => e);
    expect((error as NaturalExecutionError).failure).toBe('perimeter_refused');
    expect(calls).toEqual([]);
    expect(model.requestCount).toBe(1);
    const end = runner.ledger.select({ kind: 'execution.end' })[0]!;
    expect([end.status, (end.data as { failure?: string }).failure]).toEqual(['failed', 'perimeter_refused']);
    expect(runner.ledger.select({ kind: 'capability.refused' }).map((e) => e.status)).toEqual(['audit-store-failed']);
    expect(runner.ledger.select({ kind: 'operation' }).map((e) => e.status)).toEqual(['aborted', 'skipped']);
  });

  it('each perimeter effect has an attempt written before it and a completion after it (SQLite)', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'nh-cap-')), 'audit.db');
    const store = new SqlitePerimeterAuditStore({ path });
    const seenAtEffect: string[] = [];
    const { capability } = trackedCapability('send', ['egress']);
    const probe = { ...capability, run: async (a: { target: string }) => { seenAtEffect.push(...(await store.list()).map((e) => e.status)); return capability.run(a, undefined as never); } };
    const { runner } = scriptedRunner([], { platformPolicy: ['egress'], perimeterAuditStore: store });
    await runner.run((ctx) => ctx.invoke('send', { target: 'x' }), { grant: { capabilities: [probe] } });
    expect(seenAtEffect).toEqual(['indeterminate']);
    const entries = await store.list();
    expect(entries.map((e) => [e.attempt.capability, e.status])).toEqual([['send', 'completed']]);
    store.close();
  });

  it('a nested scope cannot widen authority; after a narrowed scope returns the parent capabilities work again', async () => {
    const a = trackedCapability('alpha');
    const b = trackedCapability('beta');
    const { runner } = scriptedRunner([]);
    await runner.run(
      async (ctx) => {
        await ctx.attenuate({ capabilities: ['alpha'] }, async () => {
          await ctx.invoke('alpha', { target: '1' });
          await expect(ctx.invoke('beta', { target: '2' })).rejects.toBeInstanceOf(CapabilityRefusedError);
          await expect(ctx.attenuate({ capabilities: ['beta'] }, async () => 0)).rejects.toBeInstanceOf(GrantWideningError);
        });
        await ctx.invoke('beta', { target: '3' });
      },
      { grant: { capabilities: [a.capability, b.capability] } },
    );
    expect(a.calls).toEqual([{ target: '1' }]);
    expect(b.calls).toEqual([{ target: '3' }]);
  });

  it('an attenuation request is read once: a list whose entries answer differently on each read narrows to what was read', async () => {
    const a = trackedCapability('alpha');
    const b = trackedCapability('beta');
    const { runner } = scriptedRunner([]);
    let reads = 0;
    // Checked as 'alpha' (granted), then read again as 'beta' when the narrowed authority was built.
    const shifting = Object.defineProperty([] as string[], 0, { get: () => (reads++ === 0 ? 'alpha' : 'beta'), enumerable: true });
    let inside: unknown[] = [];
    await runner.run(
      async (ctx) => {
        await ctx.attenuate({ capabilities: shifting }, async () => {
          inside = [await ctx.invoke('alpha', { target: '1' }).then(() => 'alpha ran', (e: Error) => e.name), await ctx.invoke('beta', { target: '2' }).then(() => 'beta ran', (e: Error) => e.name)];
        });
      },
      { grant: { capabilities: [a.capability, b.capability] } },
    );
    expect(reads).toBe(1);
    expect(inside).toEqual(['alpha ran', 'CapabilityRefusedError']);
    expect(b.calls).toEqual([]);
  });

  it('a granted capability is a model tool whose calls are inspected operations recorded in the ledger', async () => {
    const { capability, calls } = trackedCapability('lookup');
    const { runner } = scriptedRunner([() => ({ toolCalls: [toolCall('lookup', { target: 'q' }), finish()] })]);
    await runner.run(async () => step({ program: 'execute\nLook it up.' }), { grant: { capabilities: [capability] } });
    expect(calls).toEqual([{ target: 'q' }]);
    const op = runner.ledger.select({ kind: 'operation' })[0]!;
    expect(op.data).toMatchObject({ status: 'completed', request: { kind: 'tool', toolName: 'lookup' } });
    expect(runner.ledger.select({ kind: 'capability.call' })[0]).toMatchObject({ status: 'completed', parentId: op.parentId });
  });

  it('records the inputs as validated, before the body: a body that mutates its request (or then fails) does not rewrite them', async () => {
    const capability = defineCapability({
      name: 'tag',
      description: 'tags items',
      request: z.object({ items: z.array(z.string()), label: z.string() }),
      run: (request) => {
        request.items.push('added by the body');
        request.label = 'rewritten';
        if (request.items.length > 2) throw new Error('too many');
        return 'ok';
      },
    });
    const { runner } = scriptedRunner([() => ({ toolCalls: [toolCall('tag', { items: ['a'], label: 'model' }), finish()] })]);
    await runner.run(async (ctx) => {
      await step({ program: 'execute\nTag.' });
      await ctx.invoke('tag', { items: ['b', 'c'], label: 'host' }).catch(() => undefined);
    }, { grant: { capabilities: [capability] } });
    const calls = runner.ledger.select({ kind: 'capability.call' });
    expect(calls.map((e) => [e.status, (e.data as { arguments: unknown }).arguments])).toEqual([
      ['completed', { items: ['a'], label: 'model' }],
      ['failed', { items: ['b', 'c'], label: 'host' }],
    ]);
  });
});

