"""Starts a kernel, sends one kernel_info request and, the moment its reply arrives, executes <cell>, as a client that
does not wait for iopub to settle does (jupyter_client used directly, the benchmarks' drivers). Usage: info_then_cell.py
<kernel_name> <cell>. Prints one JSON object: {"status", "result" (text/plain or null), "errors" ([ename, evalue])}."""
import json
import sys

from jupyter_client.manager import KernelManager


def main():
    km = KernelManager(kernel_name=sys.argv[1])
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    try:
        info = kc.kernel_info()
        while kc.get_shell_msg(timeout=120)["parent_header"].get("msg_id") != info:
            pass
        msg_id = kc.execute(sys.argv[2])
        seen = {"result": None, "errors": []}
        while True:
            msg = kc.get_iopub_msg(timeout=120)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind = msg["msg_type"]
            if kind == "execute_result":
                seen["result"] = msg["content"]["data"].get("text/plain")
            elif kind == "error":
                seen["errors"].append([msg["content"]["ename"], msg["content"]["evalue"][:200]])
            elif kind == "status" and msg["content"]["execution_state"] == "idle":
                break
        while True:
            reply = kc.get_shell_msg(timeout=120)
            if reply["parent_header"].get("msg_id") == msg_id:
                break
        print(json.dumps({"status": reply["content"]["status"], **seen}))
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


if __name__ == "__main__":
    main()
