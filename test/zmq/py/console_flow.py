"""Types inputs at `jupyter console --kernel <name>` (pexpect, a pseudo-terminal) and prints a JSON transcript.

Usage: console_flow.py <kernel_name> <steps.json>. Each step is {"code": str} or {"code": str, "interrupt_after": "text"}:
the latter waits for that text to be printed, then sends Ctrl+C. Records the prompt numbers as they appear and all
text printed between prompts.
"""
import json
import os
import re
import sys
import time

import pexpect

# A fresh prompt (not a redraw of the line being typed): prompt_toolkit enables bracketed paste as each
# prompt session starts, so the full prompt is recognised by that escape sequence before it.
FULL_PROMPT = re.compile(r"\x1b\[\?2004h(?:\x1b\[[0-9;?]*[A-Za-z])*In \[(?:\x1b\[[0-9;]*m)*(\d+)(?:\x1b\[[0-9;]*m)*\]: ")
SIMPLE_PROMPT = re.compile(r"In \[(\d+)\]: ")
TIMEOUT = 60
# The full prompt_toolkit prompt (the default a newcomer gets) sends is_complete_request on every Enter.
SIMPLE = "--simple-prompt" in sys.argv
PROMPT = SIMPLE_PROMPT if SIMPLE else FULL_PROMPT


def main():
    kernel, steps_file = [a for a in sys.argv[1:] if not a.startswith("--")][:2]
    steps = json.load(open(steps_file))
    child = pexpect.spawn(
        "/usr/bin/jupyter-console",
        ["--kernel", kernel, "--ZMQTerminalInteractiveShell.confirm_exit=False"] + (["--simple-prompt"] if SIMPLE else []),
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(50, 400),
        # pexpect's pty answers no cursor-position requests; prompt_toolkit would wait for ENTER.
        env={**os.environ, "PROMPT_TOOLKIT_NO_CPR": "1", "TERM": "xterm"},
    )
    child.expect(PROMPT)
    banner = child.before
    prompts = [int(child.match.group(1))]
    transcript = []
    for step in steps:
        # Typed, then Enter on its own a moment later, as a person does (a pasted line with its newline reaches
        # prompt_toolkit's key processor in one batch, which this console version cannot re-enter).
        child.send(step["code"])
        time.sleep(0.3)
        child.send("\r")
        out = ""
        started = time.time()
        if "interrupt_after" in step:
            child.expect(re.escape(step["interrupt_after"]))
            out += child.before + child.after
            time.sleep(step.get("interrupt_delay", 1.0))
            child.sendintr()
            # Python may lose a SIGINT that lands inside a weakref callback ("Exception ignored in ... _remove:
            # KeyboardInterrupt"), and the console then never asks the kernel to interrupt: press it again, as a
            # person would. The test still requires the interrupt within its time bound.
            if child.expect([PROMPT, pexpect.TIMEOUT], timeout=10) == 1:
                out += child.before
                child.sendintr()
            else:
                out += child.before
                prompts.append(int(child.match.group(1)))
                transcript.append({"code": step["code"], "output": out, "seconds": round(time.time() - started, 2)})
                continue
        try:
            child.expect(PROMPT)
        except pexpect.TIMEOUT:
            transcript.append({"code": step["code"], "output": out + child.before, "timeout": True})
            break
        out += child.before
        prompts.append(int(child.match.group(1)))
        transcript.append({"code": step["code"], "output": out, "seconds": round(time.time() - started, 2)})
    child.sendeof()
    try:
        if child.expect([pexpect.EOF, re.compile(r"exit \(\[y\]/n\)\? ")], timeout=20) == 1:
            child.sendline("y")
            child.expect(pexpect.EOF, timeout=20)
    except pexpect.TIMEOUT:
        child.terminate(force=True)
    print(json.dumps({"banner": banner, "prompts": prompts, "steps": transcript}))


if __name__ == "__main__":
    main()
