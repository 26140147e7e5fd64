import { describe, expect, expectTypeOf, it } from 'vitest';
import { LedgerEventSchema, LEDGER_EVENT_KINDS, type LedgerText } from '../../shared/ledger-events.js';
import { Ledger, step, type LedgerEvent, type Snapshot, type SnapshotOf } from '../../kernel/src/index.js';
import { toolCall } from '../../kernel/src/testing.js';
import { finish, memoryStore, scriptedRunner, trackedCapability } from './support.js';

type Policy = 'egress' | 'destructive' | 'durable_write_back';

describe('typed ledger events', () => {
  it('select with a kind returns that kind’s event type, with typed status and data', () => {
    // Type-level only: the ledger is empty, so the values below are never read at run time.
    const ledger = new Ledger();
    type First<T extends readonly unknown[]> = NonNullable<T[number]>;
    const entry = null as unknown as First<ReturnType<typeof ledger.select<'run.entry'>>>;
    expectTypeOf<typeof entry.kind>().toEqualTypeOf<'run.entry'>();
    expectTypeOf<typeof entry.data.effectivePolicy>().toEqualTypeOf<readonly Policy[]>();
    expectTypeOf<typeof entry.data.executorStepObservation>().toEqualTypeOf<'adapter' | 'custom-admission' | 'aggregate'>();
    expectTypeOf<typeof entry.data.confinementIdentity>().toEqualTypeOf<string | null>();
    expectTypeOf<typeof entry.status>().toEqualTypeOf<undefined>();

    const start = null as unknown as First<ReturnType<typeof ledger.select<'dispatch.start'>>>;
    expectTypeOf<typeof start.status>().toEqualTypeOf<'materialization' | 'invocation'>();
    expectTypeOf<typeof start.data.definitionId>().toEqualTypeOf<string>();

    const call = null as unknown as First<ReturnType<typeof ledger.select<'capability.call'>>>;
    expectTypeOf<typeof call.data.capability>().toEqualTypeOf<string>();
    expectTypeOf<typeof call.data.footprint>().toEqualTypeOf<readonly Policy[]>();
    expectTypeOf<typeof call.data.result>().toEqualTypeOf<Snapshot>();

    const refused = null as unknown as First<ReturnType<typeof ledger.select<'capability.refused'>>>;
    expectTypeOf<typeof refused.data.reason>().toEqualTypeOf<'not-granted' | 'invalid-request' | 'footprint-outside-policy' | 'audit-store-failed' | 'run-closed' | 'other-run' | 'branch-terminated'>();
    expectTypeOf<typeof refused.data.detail>().toEqualTypeOf<SnapshotOf<LedgerText>>();

    const anomaly = null as unknown as First<ReturnType<typeof ledger.select<'trace.anomaly'>>>;
    expectTypeOf<typeof anomaly.data.anomalyKind>().toEqualTypeOf<string>();

    const op = null as unknown as First<ReturnType<typeof ledger.select<'operation'>>>;
    expectTypeOf<typeof op.status>().toEqualTypeOf<'completed' | 'failed' | 'rejected' | 'aborted' | 'skipped'>();
    expectTypeOf<typeof op.data.request.operationId>().toEqualTypeOf<string>();
  });

  it('a list of kinds gives the union of those kinds; no kind gives the whole union, narrowed by `kind`', () => {
    const ledger = new Ledger();
    const ends = ledger.select({ kind: ['run.end', 'execution.end'] });
    expectTypeOf<(typeof ends)[number]['kind']>().toEqualTypeOf<'run.end' | 'execution.end'>();
    expectTypeOf(ends).toEqualTypeOf<readonly (LedgerEvent<'run.end'> | LedgerEvent<'execution.end'>)[]>();
    const all = ledger.select({ runId: 'r' });
    expectTypeOf(all).toEqualTypeOf<readonly LedgerEvent[]>();
    const any = null as unknown as (typeof all)[number];
    if (any?.kind === 'allocation.exhausted') expectTypeOf<typeof any.data.resource>().toEqualTypeOf<'recursion-depth' | 'executor-steps' | 'cost' | 'natural-executions' | 'dispatches' | 'operations' | 'operations-per-response'>();
    // Appends are checked against the kind too.
    // @ts-expect-error a run.end status outside the union
    expect(() => ledger.append('r', { kind: 'run.end', subjectId: 'r', status: 'finished' })).not.toThrow();
    // @ts-expect-error run.entry data without the host's fields
    ledger.append('r2', { kind: 'run.entry', subjectId: 'r2', data: { label: 'x' } });
  });

  it('every event a varied run records parses with the shared schema', async () => {
    const { capability } = trackedCapability('lookup');
    const { capability: perimeter } = trackedCapability('send', ['egress']);
    const { runner } = scriptedRunner(
      [
        () => ({ toolCalls: [toolCall('lookup', { target: 'a' }), toolCall('nh_evaluate', { expression: 'eval("1")' })] }),
        () => ({ toolCalls: [toolCall('lookup', { target: 7 }), finish()] }),
      ],
      { platformPolicy: ['egress'], perimeterAuditStore: memoryStore(), allocation: { maxDispatches: 2 } },
    );
    await runner
      .run(
        async (ctx) => {
          await step({ program: 'execute\nLook it up.' }).catch(() => undefined);
          await ctx.invoke('send', { target: 'b' });
          await ctx.invoke('missing', {}).catch(() => undefined);
          ctx.recordPartEvent('demo', { kind: 'tick', n: 1 });
          await ctx.dispatch({ language: 'typescript', intent: 'define-and-invoke', entry: 'add', args: [1, 2], source: 'export function add(a: number, b: number): number { return a + b; }' });
          await ctx.dispatch({ language: 'typescript', intent: 'define', source: 'export const x = 1;' });
          throw new Error('end');
        },
        { grant: { capabilities: [capability, perimeter] }, label: 'varied' },
      )
      .catch(() => undefined);
    const events = runner.ledger.events();
    const seen = new Set(events.map((e) => e.kind));
    for (const kind of ['run.entry', 'run.end', 'execution.start', 'execution.end', 'operation', 'capability.call', 'capability.refused', 'dispatch.start', 'dispatch.end', 'trace.anomaly', 'allocation.exhausted', 'part.event']) {
      expect(seen, kind).toContain(kind);
    }
    expect([...seen].every((k) => LEDGER_EVENT_KINDS.includes(k))).toBe(true);
    for (const event of events) {
      const parsed = LedgerEventSchema.safeParse(event);
      expect(parsed.success, `${event.kind}: ${parsed.success ? '' : JSON.stringify(parsed.error.issues)}`).toBe(true);
    }
  });

  it('the schema refuses an event whose data does not match its kind', () => {
    const base = { sequence: 1, eventId: 'ev_1', runId: 'r', subjectId: 'r', at: 0 };
    expect(LedgerEventSchema.safeParse({ ...base, kind: 'run.end', status: 'completed', data: {} }).success).toBe(true);
    expect(LedgerEventSchema.safeParse({ ...base, kind: 'run.end', status: 'finished', data: {} }).success).toBe(false);
    expect(LedgerEventSchema.safeParse({ ...base, kind: 'capability.refused', status: 'not-granted', data: { capability: 'x' } }).success).toBe(false);
    expect(LedgerEventSchema.safeParse({ ...base, kind: 'no.such.kind', data: {} }).success).toBe(false);
  });
});
