import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { installedKernel, pyDir, PYTHON, run, type JupyterEnv } from './zmq-fixture.js';

const SUITE = [
  'test_clear_output',
  'test_completion',
  'test_display_data',
  'test_error',
  'test_execute_result',
  'test_execute_stderr',
  'test_execute_stdout',
  'test_history',
  'test_inspect',
  'test_is_complete',
  'test_kernel_info',
  'test_pager',
];

let jupyter: JupyterEnv;

beforeAll(async () => {
  jupyter = await installedKernel();
}, 120_000);

afterAll(() => jupyter?.cleanup());

describe('the installed kernelspec under jupyter_kernel_test 0.4.5', () => {
  test('all twelve conformance tests pass (kernel_info, streams, completion, is_complete, pager, error, execute_result, display_data, history, inspect, clear_output)', async () => {
    const result = await run(PYTHON, ['-m', 'unittest', '-v', 'nighthawk_kernel_tests'], { env: jupyter.env, cwd: pyDir, timeoutMs: 150_000 });
    const output = `${result.stdout}\n${result.stderr}`;
    // unittest -v prints one `test_x (module.Class.test_x) ... ok` line per test (subtest failures are listed separately).
    const verdicts = new Map([...output.matchAll(/^(test_\w+) \([\w.]+\) \.\.\. (ok|FAIL|ERROR|skipped.*)$/gm)].map((m) => [m[1]!, m[2]!]));
    const passed = SUITE.filter((name) => verdicts.get(name) === 'ok');
    if (passed.length !== SUITE.length || !/^Ran 12 tests/m.test(output) || !/^OK$/m.test(output)) {
      expect.fail(`jupyter_kernel_test: ${passed.length}/12 passed\n${output}`);
    }
    expect(passed).toEqual(SUITE);
  }, 160_000);
});
