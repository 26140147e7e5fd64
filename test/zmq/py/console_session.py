"""Drives `jupyter console --kernel <name>` in a pseudo-terminal with pexpect and prints a JSON transcript.

Each step types one line at the `In [n]:` prompt and records everything printed until the next prompt.
Usage: console_session.py <kernel_name> <steps.json>, where steps.json is a list of {"code": str, "answers": [str]}:
answers are typed at stdin prompts (input_request) the cell raises, in order.
"""
import json
import re
import sys

import pexpect

PROMPT = re.compile(r"In \[\d+\]: ")
TIMEOUT = 60


def main():
    kernel, steps_file = sys.argv[1], sys.argv[2]
    steps = json.load(open(steps_file))
    child = pexpect.spawn(
        "/usr/bin/jupyter-console",
        ["--kernel", kernel, "--simple-prompt", "--ZMQTerminalInteractiveShell.confirm_exit=False"],
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(50, 400),
    )
    child.expect(PROMPT)
    banner = child.before
    transcript = []
    for step in steps:
        child.sendline(step["code"])
        answers = list(step.get("answers", []))
        out = ""
        while True:
            # An answer is typed at the prompt the input_request printed (text ends with the prompt string).
            patterns = [PROMPT] + ([re.compile(re.escape(step["answer_after"]))] if answers and "answer_after" in step else [])
            which = child.expect(patterns)
            out += child.before
            if which == 0:
                break
            out += child.after
            child.sendline(answers.pop(0))
        transcript.append({"code": step["code"], "output": out})
    child.sendeof()
    if child.expect([pexpect.EOF, re.compile(r"exit \(\[y\]/n\)\? ")]) == 1:
        child.sendline("y")
        child.expect(pexpect.EOF)
    print(json.dumps({"banner": banner, "steps": transcript}))


if __name__ == "__main__":
    main()
