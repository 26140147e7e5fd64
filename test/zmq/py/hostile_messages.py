"""Signed but hostile messages to the ZeroMQ kernel through jupyter_client; prints one JSON report.

Checks, in one kernel process: a malformed execute_request sent before the kernel has loaded (cold) and
again once warm gets an error reply on shell and the kernel then answers 1+1; malformed control and shell
requests get error replies on their own channel; a replayed signed message is not executed twice.
Usage: hostile_messages.py <kernel_name>
"""
import json
import sys
import time

from jupyter_client.manager import KernelManager
from jupyter_client.session import Session


def reply_on(sock, session, timeout_ms):
    """The next message on a raw socket (deserialised), or None."""
    if not sock.poll(timeout_ms):
        return None
    _, msg = session.recv(sock)
    return msg


def send_raw(session, sock, msg_type, content):
    msg = session.msg(msg_type, content)
    session.send(sock, msg)
    return msg["header"]["msg_id"]


def replies_for(sock, session, msg_id, timeout_s=30):
    """Waits for the reply to msg_id on a raw socket."""
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        msg = reply_on(sock, session, 500)
        if msg is not None and msg["parent_header"].get("msg_id") == msg_id:
            return {"msg_type": msg["msg_type"], "status": msg["content"].get("status"), "ename": msg["content"].get("ename"), "evalue": msg["content"].get("evalue")}
    return None


def execute(kc, code):
    reply = kc.execute_interactive(code, timeout=60, output_hook=lambda m: None)
    return reply["content"]


def result_of(kc, code):
    out = []

    def hook(m):
        if m["msg_type"] == "execute_result":
            out.append(m["content"]["data"]["text/plain"])

    reply = kc.execute_interactive(code, timeout=60, output_hook=hook)
    return {"status": reply["content"]["status"], "value": out[0] if out else None}


def main():
    kernel = sys.argv[1]
    report = {}
    km = KernelManager(kernel_name=kernel)
    km.start_kernel()
    try:
        # Its own session (own msg_id counter): sharing the client's would reuse its msg_ids.
        session = Session(key=km.session.key, signature_scheme=km.session.signature_scheme)
        shell = km.connect_shell(identity=b"hostile")
        control = km.connect_control(identity=b"hostile-control")
        # Cold: the very first message, before any kernel_info_request made the kernel load.
        cold_id = send_raw(session, shell, "execute_request", {"code": 42})
        report["cold"] = replies_for(shell, session, cold_id, 60)
        kc = km.client()
        kc.start_channels()
        kc.wait_for_ready(timeout=60)
        report["cold_after"] = result_of(kc, "1+1")
        report["cold_alive"] = km.is_alive()
        # Warm: the same message once cells have run.
        execute(kc, "let hostileCounter = 0")
        warm_id = send_raw(session, shell, "execute_request", {"code": 42})
        report["warm"] = replies_for(shell, session, warm_id)
        report["warm_after"] = result_of(kc, "1+1")
        # Other malformed contents, on shell and on control.
        bad = {}
        for name, sock, msg_type, content in [
            ("complete", shell, "complete_request", {"code": "x", "cursor_pos": -5}),
            ("inspect", shell, "inspect_request", {"code": "a", "cursor_pos": "end"}),
            ("execute_silent", shell, "execute_request", {"code": "1", "silent": "yes"}),
            ("shutdown", control, "shutdown_request", {"restart": "yes"}),
            ("history", shell, "history_request", {"hist_access_type": 7, "n": "x"}),
            ("comm_info", shell, "comm_info_request", {"target_name": 5}),
        ]:
            msg_id = send_raw(session, sock, msg_type, content)
            bad[name] = replies_for(sock, session, msg_id)
        report["malformed"] = bad
        report["malformed_after"] = result_of(kc, "1+1")
        # Replay: the same signed frames twice; the counter must move once.
        msg = session.msg("execute_request", {"code": "hostileCounter += 1", "silent": False, "store_history": False})
        frames = session.serialize(msg, ident=[b"hostile"])
        shell.send_multipart(frames)
        first = replies_for(shell, session, msg["header"]["msg_id"])
        shell.send_multipart(frames)
        replayed = replies_for(shell, session, msg["header"]["msg_id"], 3)
        report["replay"] = {"first": first, "replayed": replayed, "counter": result_of(kc, "hostileCounter")}
        report["alive"] = km.is_alive()
        kc.stop_channels()
        shell.close(linger=0)
        control.close(linger=0)
    finally:
        if km.is_alive():
            km.shutdown_kernel(now=True)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
