"""Starts the kernel the way nbclient and jupyter_client.start_new_kernel do (wait_for_ready), then reports
what is left in the shell queue, the time to the first kernel_info_reply, and whether is_complete is
answered at once. Usage: startup_probe.py <kernel_name>. Prints one JSON object."""
import json
import sys
import time
from queue import Empty

from jupyter_client.manager import start_new_kernel


def main():
    t0 = time.time()
    km, kc = start_new_kernel(kernel_name=sys.argv[1], startup_timeout=60)
    ready = time.time() - t0
    leftover = []
    try:
        while True:
            leftover.append(kc.get_shell_msg(timeout=1.5)["msg_type"])
    except Empty:
        pass
    t1 = time.time()
    msg_id = kc.is_complete("const x = {")
    reply = kc.get_shell_msg(timeout=5)
    is_complete = {"seconds": round(time.time() - t1, 3), "matches": reply["parent_header"].get("msg_id") == msg_id, "content": reply["content"]}
    kc.stop_channels()
    km.shutdown_kernel(now=True)
    print(json.dumps({"ready_seconds": round(ready, 3), "leftover": leftover, "is_complete": is_complete}))


if __name__ == "__main__":
    main()
