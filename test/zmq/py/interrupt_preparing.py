"""Interrupting a cell the kernel is still preparing, through jupyter_client (SIGINT to the process group).

The kernel's host module holds the thread in its cell transform for a cell marked /*slow*/ (as a first
conversion does on a loaded machine). The cell is interrupted the moment it is announced (execute_input).
Usage: interrupt_preparing.py <kernel_name>; prints one JSON report: the cell's reply, how long it took,
whether the kernel is alive, and the value of a later cell that reads an earlier cell's variable.
"""
import json
import sys
import time

from kernel_waits import kept_value, reply_for, started_kernel, wait_for_iopub


def main():
    report = {}
    with started_kernel(sys.argv[1]) as (km, kc):
        kc.execute_interactive("let before = 1", timeout=60, output_hook=lambda m: None)
        started = time.time()
        msg_id = kc.execute('/*slow*/ await new Promise((resolve) => setTimeout(resolve, 30_000)); "finished"')
        report["announced"] = wait_for_iopub(kc, msg_id, lambda msg: msg["msg_type"] == "execute_input")
        km.interrupt_kernel()
        report["reply"] = reply_for(kc, msg_id, timeout=40)
        report["seconds"] = round(time.time() - started, 1)
        report["alive"] = km.is_alive()
        report["kept"] = kept_value(km, kc, "before + 2")
    print(json.dumps(report))


if __name__ == "__main__":
    main()
