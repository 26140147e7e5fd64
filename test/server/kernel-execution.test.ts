import { KernelAPI, KernelMessage } from '@jupyterlab/services';
import { describe, expect, test } from 'vitest';
import { kernelSuite } from '../support/kernel-suite.js';
import { runCell } from '../support/kernel-client.js';

const suite = kernelSuite();

/** Resolves once the suite's kernel reads `status` (at once if it does now). */
function untilStatus(status: string): Promise<void> {
  return new Promise<void>((resolve) => {
    if (suite.kernel.status === status) return resolve();
    const on = (_: unknown, now: string): void => {
      if (now !== status) return;
      suite.kernel.statusChanged.disconnect(on);
      resolve();
    };
    suite.kernel.statusChanged.connect(on);
  });
}

/** Runs `action`, recording the suite's kernel statuses until it reads idle after having read `marker`. */
async function statusesThrough(marker: string, action: () => Promise<unknown>): Promise<string[]> {
  const statuses: string[] = [];
  let onStatus!: (_: unknown, status: string) => void;
  const reached = new Promise<void>((resolve) => {
    onStatus = (_, status) => {
      statuses.push(status);
      if (status === 'idle' && statuses.includes(marker)) resolve();
    };
  });
  suite.kernel.statusChanged.connect(onStatus);
  try {
    await action();
    await reached;
  } finally {
    suite.kernel.statusChanged.disconnect(onStatus);
  }
  return statuses;
}

/** A control request as a client sends it (services' createMessage has no overload for shutdown_request). */
function controlRequest(msgType: 'shutdown_request' | 'interrupt_request', content: object): KernelMessage.IControlMessage {
  const base = KernelMessage.createMessage({ msgType: 'interrupt_request', channel: 'control', session: suite.kernel.clientId, content: {} });
  return { ...base, header: { ...base.header, msg_type: msgType }, content } as unknown as KernelMessage.IControlMessage;
}

describe('executing cells through @jupyterlab/services', () => {
  test('1+1 returns an execute_result whose text/plain is 2', async () => {
    const run = await runCell(suite.kernel, '1+1');
    expect(run.reply.status).toBe('ok');
    expect(run.result?.['text/plain']).toBe('2');
    expect(run.result?.['application/json']).toBe(2);
    expect(run.stdout).toBe('');
    const types = run.iopub.map((m) => m.header.msg_type);
    expect(types[0]).toBe('status');
    expect(types).toContain('execute_input');
    expect(types.at(-1)).toBe('status');
  });

  test('console output arrives as stream messages, not as the result', async () => {
    const run = await runCell(suite.kernel, 'console.log("hello"); console.error("oops"); process.stdout.write("raw\\n"); undefined');
    expect(run.stdout).toBe('hello\nraw\n');
    expect(run.stderr).toBe('oops\n');
    expect(run.result).toBeUndefined();
  });

  test('state, redeclaration and top-level await carry across cells', async () => {
    await runCell(suite.kernel, 'let counter: number = 41');
    const run = await runCell(suite.kernel, 'const next = await Promise.resolve(counter + 1); ({ next, list: [1, "a"] })');
    expect(run.result?.['application/json']).toEqual({ next: 42, list: [1, 'a'] });
    await runCell(suite.kernel, 'let counter = "now a string"');
    const again = await runCell(suite.kernel, 'counter.toUpperCase()');
    expect(again.result?.['text/plain']).toBe("'NOW A STRING'");
  });

  test('re-running an unchanged cell is checked against the current declarations', async () => {
    await runCell(suite.kernel, 'let width: number = 3');
    expect((await runCell(suite.kernel, 'width.toFixed(1)')).result?.['text/plain']).toBe("'3.0'");
    expect((await runCell(suite.kernel, 'width.toFixed(1)')).result?.['text/plain']).toBe("'3.0'");
    await runCell(suite.kernel, 'let width = "wide"');
    const rerun = await runCell(suite.kernel, 'width.toFixed(1)');
    expect(rerun.error?.ename).toBe('TypeScriptError');
    expect(rerun.error?.evalue).toContain("Property 'toFixed' does not exist on type 'string'");
  });

  test('a type error is a structured TypeScriptError with line and column', async () => {
    const run = await runCell(suite.kernel, 'interface P { n: number }\nconst p: P = { n: "bad" }');
    expect(run.reply.status).toBe('error');
    expect(run.error?.ename).toBe('TypeScriptError');
    expect(run.error?.evalue).toMatch(/^2:16 - Type 'string' is not assignable to type 'number'/);
    expect(run.error?.traceback.join('\n')).toContain('const p: P = { n: "bad" }');
  });

  test('a runtime error carries ename, evalue and a traceback with cell line numbers', async () => {
    const code = 'function check(a: number) {\n  if (a > 1) {\n    throw new RangeError("too big: " + a);\n  }\n  return a;\n}\ncheck(5)';
    const run = await runCell(suite.kernel, code);
    expect(run.reply.status).toBe('error');
    expect(run.error).toMatchObject({ ename: 'RangeError', evalue: 'too big: 5' });
    const frames = run.error!.traceback.join('\n');
    expect(frames).toMatch(/at check \(Cell \[\d+\], line 3\)/);
    expect(frames).toMatch(/Cell \[\d+\], line 7/);
  });

  test('the next request after an error runs instead of being aborted', async () => {
    await runCell(suite.kernel, 'throw new Error("first")');
    const run = await runCell(suite.kernel, '"after"');
    expect(run.reply.status).toBe('ok');
    expect(run.result?.['text/plain']).toBe("'after'");
  });

  test('complete, inspect and is_complete answer from the TypeScript service', async () => {
    await runCell(suite.kernel, 'const greeting = "hi"; function twice(x: number): number { return x * 2 }');
    const completion = await suite.kernel.requestComplete({ code: 'greeting.toUpp', cursor_pos: 14 });
    expect(completion.content.status).toBe('ok');
    expect((completion.content as { matches: string[] }).matches).toContain('toUpperCase');
    const inspection = await suite.kernel.requestInspect({ code: 'twice', cursor_pos: 2, detail_level: 0 });
    expect((inspection.content as { data: Record<string, string> }).data['text/plain']).toContain('function twice(x: number): number');
    // TypeScript's lib and @types/node are read without their JSDoc (declaration-docs.ts); an inspection still
    // shows their documentation, from the files on disk.
    const docOf = async (code: string, cursor: number): Promise<string> =>
      ((await suite.kernel.requestInspect({ code, cursor_pos: cursor, detail_level: 0 })).content as { data: Record<string, string> }).data['text/plain'] ?? '';
    expect(await docOf('Math.max', 6)).toMatch(/Math\.max\(.*\): number\n\nReturns the larger of a set of supplied numeric expressions/s);
    expect(await docOf('process.cwd', 9)).toMatch(/cwd\(\): string\n\nThe `process\.cwd\(\)` method returns the current working directory/s);
    expect(await docOf('JSON.parse', 6)).toMatch(/JSON\.parse\(.*\): any\n\nConverts a JavaScript Object Notation \(JSON\) string into an object\.$/s);
    const incomplete = await suite.kernel.requestIsComplete({ code: 'function f() {' });
    expect(incomplete.content.status).toBe('incomplete');
    const complete = await suite.kernel.requestIsComplete({ code: 'f()' });
    expect(complete.content.status).toBe('complete');
  });

  test('history and comm_info requests get well-formed replies', async () => {
    const history = await suite.kernel.requestHistory({ output: false, raw: true, hist_access_type: 'tail', n: 10 });
    expect(history.content).toMatchObject({ status: 'ok', history: [] });
    const comms = await suite.kernel.requestCommInfo({});
    expect(comms.header.msg_type).toBe('comm_info_reply');
    expect(comms.content).toMatchObject({ status: 'ok', comms: {} });
  });

  test('interrupting a long awaiting cell ends it with KeyboardInterrupt and the kernel keeps working', async () => {
    const running = runCell(suite.kernel, 'await new Promise((r) => setTimeout(r, 60000)); "not reached"', {
      onIOPub: (msg) => {
        if (msg.header.msg_type === 'execute_input') void suite.kernel.interrupt();
      },
    });
    const run = await running;
    expect(run.reply.status).toBe('error');
    expect(run.error?.ename).toBe('KeyboardInterrupt');
    const after = await runCell(suite.kernel, '1+1');
    expect(after.result?.['text/plain']).toBe('2');
  });

  test('interrupting a busy synchronous loop ends it with KeyboardInterrupt', async () => {
    const run = await runCell(suite.kernel, 'let spins = 0; while (true) { spins++ }', {
      onIOPub: (msg) => {
        if (msg.header.msg_type === 'execute_input') void suite.kernel.interrupt();
      },
    });
    expect(run.error?.ename).toBe('KeyboardInterrupt');
    const after = await runCell(suite.kernel, '2+2');
    expect(after.result?.['text/plain']).toBe('4');
  });

  test('a cell that ends the kernel process gets a KernelDied error and a fresh kernel takes over', async () => {
    await runCell(suite.kernel, 'const survivor = 1');
    // The client reconnects when it sees the server's `restarting` status; cells sent before that are dropped.
    const reconnected = new Promise<void>((resolve) => {
      let autorestarted = false;
      suite.kernel.statusChanged.connect((_, status) => {
        if (status === 'autorestarting') autorestarted = true;
      });
      suite.kernel.connectionStatusChanged.connect((_, status) => {
        if (autorestarted && status === 'connected') resolve();
      });
    });
    const run = await runCell(suite.kernel, 'process.exit(3)');
    expect(run.reply.status).toBe('error');
    expect(run.error?.ename).toBe('KernelDied');
    await reconnected;
    const after = await runCell(suite.kernel, 'typeof survivor');
    expect(after.error?.evalue).toContain("Cannot find name 'survivor'");
    expect((await runCell(suite.kernel, '3*3')).result?.['text/plain']).toBe('9');
  });

  test('restart clears the kernel state', async () => {
    await runCell(suite.kernel, 'const beforeRestart = 7');
    expect((await runCell(suite.kernel, 'beforeRestart')).result?.['text/plain']).toBe('7');
    await suite.kernel.restart();
    const run = await runCell(suite.kernel, 'beforeRestart');
    expect(run.reply.status).toBe('error');
    expect(run.error?.evalue).toContain("Cannot find name 'beforeRestart'");
    expect((await runCell(suite.kernel, '1+1')).result?.['text/plain']).toBe('2');
  });

  test('a restart a client asks for is not announced as an auto-restart: that client reconnects once, another client sees the new kernel starting, and its running cell ends', async () => {
    // jupyter_server sends `restarting` only when its restarter revives a dead kernel; @jupyterlab/services answers
    // it with a reconnect of its own, which raced the requesting client's restart (an orphaned kernel_info).
    const other = suite.fx.kernels.connectTo({ model: { id: suite.kernel.id, name: suite.kernel.name } });
    await other.info;
    const requester: string[] = [];
    const observer: string[] = [];
    let connects = 0;
    const onRequester = (_: unknown, status: string): void => void requester.push(status);
    const onObserver = (_: unknown, status: string): void => void observer.push(status);
    const onConnection = (_: unknown, status: string): void => void (status === 'connected' && connects++);
    suite.kernel.statusChanged.connect(onRequester);
    other.statusChanged.connect(onObserver);
    suite.kernel.connectionStatusChanged.connect(onConnection);
    try {
      // The other client's cell is still running when the restart comes: it is answered, not left waiting.
      let running!: () => void;
      const started = new Promise<void>((resolve) => (running = resolve));
      const othersCell = runCell(other, 'await new Promise((resolve) => setTimeout(resolve, 60_000))', {
        onIOPub: (msg) => void (msg.header.msg_type === 'execute_input' && running()),
      });
      await started;
      await suite.kernel.restart();
      const ended = await othersCell;
      expect(ended.reply.status).toBe('error');
      expect(ended.error?.ename).toBe('KernelRestarted');
      expect((await runCell(suite.kernel, '1+1')).result?.['text/plain']).toBe('2');
    } finally {
      suite.kernel.statusChanged.disconnect(onRequester);
      suite.kernel.connectionStatusChanged.disconnect(onConnection);
      other.dispose();
    }
    expect(requester).not.toContain('autorestarting');
    expect(connects).toBe(1);
    expect(observer).toContain('starting');
    expect(observer).not.toContain('autorestarting');
  });

  test('a kernel restarted over REST reads "starting" at once to a client that stays connected, then idle, and runs its next cell', async () => {
    // No client reconnects here, so nothing sends a kernel_info: only the restart's own announcement says "starting".
    // The kernel first reads idle (run alone, this test would otherwise restart a kernel still starting, and a
    // status that does not change is no event).
    await runCell(suite.kernel, '0');
    await untilStatus('idle');
    const statuses = await statusesThrough('starting', () => KernelAPI.restartKernel(suite.kernel.id, suite.fx.kernels.serverSettings));
    expect(statuses.slice(0, 1)).toEqual(['starting']);
    expect((await runCell(suite.kernel, '1+1')).result?.['text/plain']).toBe('2');
  });

  test('an interrupt_request on the control channel is framed as a kernel frames it (busy, reply, idle), so its future completes', async () => {
    // A services future is done only once both its reply and the idle status it caused have arrived.
    const reply = await suite.kernel.sendControlMessage(controlRequest('interrupt_request', {}), true, true).done;
    expect(reply.content).toEqual({ status: 'ok' });
    expect((await runCell(suite.kernel, '1+2')).result?.['text/plain']).toBe('3');
  });

  test('a control-channel restart (shutdown_request with restart) is announced as the server\'s own: the client auto-restarts, and its state is gone', async () => {
    await runCell(suite.kernel, 'const beforeControlRestart = 5');
    await statusesThrough('autorestarting', async () => {
      const reply = await suite.kernel.sendControlMessage(controlRequest('shutdown_request', { restart: true }), true, true).done;
      expect(reply.content).toEqual({ status: 'ok', restart: true });
    });
    const after = await runCell(suite.kernel, 'typeof beforeControlRestart');
    expect(after.error?.evalue).toContain("Cannot find name 'beforeControlRestart'");
    expect((await runCell(suite.kernel, '2+2')).result?.['text/plain']).toBe('4');
  });

  test('shorthand properties may name values from earlier cells, whatever the host', async () => {
    await runCell(suite.kernel, 'const fromEarlierCell = 41;');
    const run = await runCell(suite.kernel, '({ fromEarlierCell }).fromEarlierCell + 1');
    expect(run.error).toBeUndefined();
    expect(run.result?.['text/plain']).toBe('42');
  });
});
