"""Waiting on a jupyter_client kernel client, shared by the protocol scripts beside this file."""
import time
from queue import Empty


def wait_for_stream(kc, msg_id, text, timeout=30):
    """Blocks until the request's stdout contains `text` (the cell announcing it has started)."""
    deadline = time.time() + timeout
    seen = ""
    while time.time() < deadline:
        try:
            msg = kc.get_iopub_msg(timeout=1)
        except Empty:
            continue
        if msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "stream":
            seen += msg["content"]["text"]
            if text in seen:
                return True
    return False
