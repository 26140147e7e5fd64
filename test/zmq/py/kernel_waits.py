"""Waiting on a jupyter_client kernel client, shared by the protocol scripts beside this file."""
import time
from contextlib import contextmanager
from queue import Empty

from jupyter_client.manager import start_new_kernel


@contextmanager
def started_kernel(name, startup_timeout=60):
    """A kernel started as nbclient does, and its client; both stopped on the way out."""
    km, kc = start_new_kernel(kernel_name=name, startup_timeout=startup_timeout)
    try:
        yield km, kc
    finally:
        kc.stop_channels()
        if km.is_alive():
            km.shutdown_kernel(now=True)


def first_message(get, msg_id, accept=lambda msg: True, timeout=30):
    """The first message of request `msg_id` that `accept` takes, read with `get` (kc.get_shell_msg or
    kc.get_iopub_msg), or None if none came within `timeout` seconds."""
    deadline = time.time() + timeout
    while (left := deadline - time.time()) > 0:
        try:
            msg = get(timeout=min(1, left))
        except Empty:
            continue
        if msg["parent_header"].get("msg_id") == msg_id and accept(msg):
            return msg
    return None


def wait_for_iopub(kc, msg_id, accept, timeout=30):
    """Blocks until `accept(msg)` holds for an iopub message of the request; False if none did in `timeout` s."""
    return first_message(kc.get_iopub_msg, msg_id, accept, timeout) is not None


def wait_for_stream(kc, msg_id, text, timeout=30):
    """Blocks until the request's stdout contains `text` (the cell announcing it has started)."""
    seen = []

    def accept(msg):
        if msg["msg_type"] != "stream":
            return False
        seen.append(msg["content"]["text"])
        return text in "".join(seen)

    return wait_for_iopub(kc, msg_id, accept, timeout)


def reply_for(kc, msg_id, timeout=30):
    """The request's execute_reply as {status, ename}, or None if none came within `timeout` seconds."""
    msg = first_message(kc.get_shell_msg, msg_id, timeout=timeout)
    return {"status": msg["content"]["status"], "ename": msg["content"].get("ename")} if msg else None


def value_of(kc, code):
    """The text/plain result of running `code`, or None if it showed none."""
    out = []

    def hook(m):
        if m["msg_type"] == "execute_result":
            out.append(m["content"]["data"]["text/plain"])

    kc.execute_interactive(code, timeout=30, output_hook=hook)
    return out[0] if out else None


def kept_value(km, kc, code):
    """value_of for a kernel that may be dead (None) or hung ("no answer")."""
    if not km.is_alive():
        return None
    try:
        return value_of(kc, code)
    except TimeoutError:
        return "no answer"
