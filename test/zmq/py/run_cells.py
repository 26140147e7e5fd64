"""Starts a kernel the way nbclient does (start_new_kernel), runs the cells given on the command line in order,
shuts it down. Usage: run_cells.py <kernel_name> <cell>... Prints one JSON object:
{"cells": [{"status", "result" (text/plain of execute_result or null), "errors" ([ename, evalue] list)}]}."""
import json
import sys

from jupyter_client.manager import start_new_kernel


def main():
    km, kc = start_new_kernel(kernel_name=sys.argv[1], startup_timeout=120)
    cells = []
    try:
        for code in sys.argv[2:]:
            seen = {"result": None, "errors": []}

            def hook(msg, seen=seen):
                if msg["msg_type"] == "execute_result":
                    seen["result"] = msg["content"]["data"].get("text/plain")
                elif msg["msg_type"] == "error":
                    seen["errors"].append([msg["content"]["ename"], msg["content"]["evalue"]])

            reply = kc.execute_interactive(code, timeout=120, output_hook=hook)
            cells.append({"status": reply["content"]["status"], **seen})
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    print(json.dumps({"cells": cells}))


if __name__ == "__main__":
    main()
