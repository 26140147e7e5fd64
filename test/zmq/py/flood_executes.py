"""Sends N `1+1` execute requests through jupyter_client (at most W outstanding) and accounts for every message.

Prints one JSON object: counts of replies, busy/idle pairs, execute_input and execute_result messages per
request, order violations, and whether the run stalled (a message never arrived within 10 s).
Usage: flood_executes.py <kernel_name> <N> [W]
"""
import json
import sys
import time

import zmq
from queue import Empty
from jupyter_client.manager import start_new_kernel
from jupyter_client.utils import run_sync

STALL_S = 10


def drain(channel):
    get = run_sync(channel.get_msg)
    while True:
        try:
            yield get(timeout=0)
        except Empty:
            return


def main():
    kernel, n = sys.argv[1], int(sys.argv[2])
    window = int(sys.argv[3]) if len(sys.argv) > 3 else 64
    km, kc = start_new_kernel(kernel_name=kernel, startup_timeout=60)
    try:
        warm = kc.execute_interactive("1+1", timeout=60, output_hook=lambda msg: None)
        assert warm["content"]["status"] == "ok", warm
        shell, iopub = kc.shell_channel, kc.iopub_channel
        poller = zmq.Poller()
        poller.register(shell.socket, zmq.POLLIN)
        poller.register(iopub.socket, zmq.POLLIN)
        requests = {}  # msg_id -> {"iopub": [types], "reply": status}
        sent = done = 0
        order_violations = 0
        stalled = False
        t0 = time.time()

        def finished(r):
            return r["reply"] is not None and r["iopub"] and r["iopub"][-1] == "idle"

        while done < n:
            while sent < n and sent - done < window:
                requests[kc.execute("1+1")] = {"iopub": [], "reply": None, "result": None}
                sent += 1
            if not poller.poll(STALL_S * 1000):
                stalled = True
                break
            for msg in drain(shell):
                r = requests.get(msg["parent_header"].get("msg_id"))
                if r is not None and msg["msg_type"] == "execute_reply":
                    r["reply"] = msg["content"]["status"]
                    if finished(r):
                        done += 1
            for msg in drain(iopub):
                r = requests.get(msg["parent_header"].get("msg_id"))
                if r is None:
                    continue
                t = msg["msg_type"]
                if t == "status":
                    t = msg["content"]["execution_state"]
                elif t == "execute_result":
                    r["result"] = msg["content"]["data"].get("text/plain")
                r["iopub"].append(t)
                if t == "idle" and finished(r):
                    done += 1
        elapsed = time.time() - t0
        expected = ["busy", "execute_input", "execute_result", "idle"]
        for r in requests.values():
            if r["iopub"] != expected:
                order_violations += 1
        report = {
            "sent": sent,
            "completed": done,
            "replies_ok": sum(1 for r in requests.values() if r["reply"] == "ok"),
            "busy": sum(r["iopub"].count("busy") for r in requests.values()),
            "idle": sum(r["iopub"].count("idle") for r in requests.values()),
            "execute_input": sum(r["iopub"].count("execute_input") for r in requests.values()),
            "execute_result": sum(1 for r in requests.values() if r["result"] == "2"),
            "order_violations": order_violations,
            "stalled": stalled,
            "seconds": round(elapsed, 2),
        }
        print(json.dumps(report))
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=False)


if __name__ == "__main__":
    main()
