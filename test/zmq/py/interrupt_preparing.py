"""Interrupting a cell the kernel is still preparing, through jupyter_client (SIGINT to the process group).

The kernel's host module holds the thread in its cell transform for a cell marked /*slow*/ (as a first
conversion does on a loaded machine). The cell is interrupted the moment it is announced (execute_input).
Usage: interrupt_preparing.py <kernel_name>; prints one JSON report: the cell's reply, how long it took,
whether the kernel is alive, and the value of a later cell that reads an earlier cell's variable.
"""
import json
import sys
import time
from queue import Empty

from kernel_waits import kept_value, reply_for, started_kernel


def wait_for_input(kc, msg_id, timeout=30):
    """Blocks until the request's execute_input is published."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            msg = kc.get_iopub_msg(timeout=1)
        except Empty:
            continue
        if msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "execute_input":
            return True
    return False


def main():
    report = {}
    with started_kernel(sys.argv[1]) as (km, kc):
        kc.execute_interactive("let before = 1", timeout=60, output_hook=lambda m: None)
        started = time.time()
        msg_id = kc.execute('/*slow*/ await new Promise((resolve) => setTimeout(resolve, 30_000)); "finished"')
        report["announced"] = wait_for_input(kc, msg_id)
        km.interrupt_kernel()
        report["reply"] = reply_for(kc, msg_id, timeout=40)
        report["seconds"] = round(time.time() - started, 1)
        report["alive"] = km.is_alive()
        report["kept"] = kept_value(km, kc, "before + 2")
    print(json.dumps(report))


if __name__ == "__main__":
    main()
