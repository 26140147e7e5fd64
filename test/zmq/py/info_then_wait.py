"""Starts a kernel (start_new_kernel: kernel_info until answered), sends nothing for up to <wait_s> seconds
while polling for <marker_file> (written by a test host module when the kernel loads it), then runs `1+1`.
Usage: info_then_wait.py <kernel_name> <marker_file> <wait_s>. Prints one JSON object:
{"loaded_before_execute": bool, "status", "result"}."""
import json
import os
import sys
import time

from jupyter_client.manager import start_new_kernel


def main():
    kernel, marker, wait_s = sys.argv[1], sys.argv[2], float(sys.argv[3])
    km, kc = start_new_kernel(kernel_name=kernel, startup_timeout=120)
    try:
        deadline = time.time() + wait_s
        while not os.path.exists(marker) and time.time() < deadline:
            time.sleep(0.1)
        loaded = os.path.exists(marker)
        seen = {"result": None}

        def hook(msg):
            if msg["msg_type"] == "execute_result":
                seen["result"] = msg["content"]["data"].get("text/plain")

        reply = kc.execute_interactive("1+1", timeout=120, output_hook=hook)
        print(json.dumps({"loaded_before_execute": loaded, "status": reply["content"]["status"], "result": seen["result"]}))
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


if __name__ == "__main__":
    main()
