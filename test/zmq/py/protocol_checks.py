"""Protocol behaviours of a kernel started through jupyter_client's KernelManager; prints one JSON report.

Checks: the heartbeat echoes, forged signatures are dropped (no reply, and the kernel keeps answering), interrupt by signal stops a
synchronous loop, interrupt_request on control stops an awaiting cell, stdin input_request reaches the client
and its input_reply answers nh.operatorApproval, restart gives a fresh kernel, and shutdown ends the process.
Usage: protocol_checks.py <kernel_name>
"""
import json
import sys
import time
from queue import Empty

import zmq
from jupyter_client.manager import start_new_kernel

from kernel_waits import wait_for_stream


def collect(kc, msg_id, timeout=30, on_stdin=None):
    """Reply and iopub messages of one request (until its idle)."""
    deadline = time.time() + timeout
    reply, iopub = None, []
    while time.time() < deadline and (reply is None or not iopub or iopub[-1]["msg_type"] != "status" or iopub[-1]["content"]["execution_state"] != "idle"):
        if on_stdin is not None:
            try:
                req = kc.get_stdin_msg(timeout=0.01)
                on_stdin(req)
            except Empty:
                pass
        try:
            msg = kc.get_iopub_msg(timeout=0.01)
            if msg["parent_header"].get("msg_id") == msg_id:
                iopub.append(msg)
        except Empty:
            pass
        try:
            msg = kc.get_shell_msg(timeout=0.01)
            if msg["parent_header"].get("msg_id") == msg_id:
                reply = msg
        except Empty:
            pass
    return reply, iopub


def heartbeat(km):
    """The hb socket echoes what it is sent."""
    sock = km.connect_hb()
    sock.send(b"ping-nighthawk")
    echoed = sock.recv() if sock.poll(10000) else None
    sock.close(linger=0)
    return {"echo": echoed.decode() if echoed else None}


def forged_signature(km, kc):
    """A hand-built execute_request with a wrong HMAC must get no reply; a correctly signed one after it must."""
    session = kc.session
    sock = km.connect_shell(identity=b"forger")
    msg = session.msg("execute_request", {"code": "1+1", "silent": False})
    parts = [session.pack(msg["header"]), session.pack(msg["parent_header"]), session.pack(msg["metadata"]), session.pack(msg["content"])]
    sock.send_multipart([b"<IDS|MSG>", b"0" * 64] + parts)
    forged_answered = sock.poll(1500) != 0
    session.send(sock, msg)  # the same message, signed with the key
    signed_answered = sock.poll(10000) != 0
    sock.close(linger=0)
    return {"forged_answered": forged_answered, "signed_answered": signed_answered}


def interrupt_by_signal(km, kc):
    # The line is sent while the loop already runs: output leaves the kernel even while a cell blocks its event loop.
    msg_id = kc.execute('console.log("spinning"); let spins = 0; while (true) { spins++; }')
    started = wait_for_stream(kc, msg_id, "spinning")
    km.interrupt_kernel()
    reply, _ = collect(kc, msg_id, timeout=20)
    after = kc.execute_interactive("21 * 2", timeout=20, output_hook=lambda m: None)
    return {"started": started, "status": reply and reply["content"]["status"], "ename": reply and reply["content"].get("ename"), "after": after["content"]["status"]}


def interrupt_by_message(km, kc):
    msg_id = kc.execute('console.log("waiting"); await new Promise(() => {})')
    started = wait_for_stream(kc, msg_id, "waiting")
    control = km.connect_control()
    req = kc.session.msg("interrupt_request", {})
    kc.session.send(control, req)
    got = control.poll(10000)
    interrupt_reply = kc.session.recv(control)[1]["content"] if got else None
    control.close(linger=0)
    reply, _ = collect(kc, msg_id, timeout=20)
    return {"started": started, "interrupt_reply": interrupt_reply, "status": reply and reply["content"]["status"], "ename": reply and reply["content"].get("ename")}


def abandoned_by_console(km, kc):
    """jupyter console's prompt_toolkit prompt drops its SIGINT relay: Ctrl+C puts it back at a prompt while its
    cell still runs, and its next is_complete_request is the interrupt. It no longer waits for that cell's
    execute_reply; a late one would be taken as the answer to its next request. Everything on shell is recorded."""
    msg_id = kc.execute('console.log("abandoned"); await new Promise(() => {})')
    started = wait_for_stream(kc, msg_id, "abandoned")
    complete_id = kc.is_complete('"next"')
    # The console sends its next input as soon as is_complete answers, before the interrupted cell has ended.
    next_id = kc.execute("40 + 2")
    shell = []
    deadline = time.time() + 3
    while time.time() < deadline:
        try:
            shell.append(kc.get_shell_msg(timeout=0.1))
        except Empty:
            pass
    iopub = []
    while True:
        try:
            iopub.append(kc.get_iopub_msg(timeout=0.2))
        except Empty:
            break
    errors = [m["content"]["ename"] for m in iopub if m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "error"]

    def who(m):
        parent = m["parent_header"].get("msg_id")
        return "interrupted cell" if parent == msg_id else "is_complete" if parent == complete_id else "next input" if parent == next_id else "other"

    return {
        "started": started,
        "shell": [[m["msg_type"], who(m), m["content"].get("status")] for m in shell],
        "errors": errors,
    }


APPROVAL_SETUP = """import * as nh from "nighthawk-ts";
import { ScriptedModel, toolCall } from "nighthawk-ts/testing";
const approvalModel = new ScriptedModel([
  () => ({ toolCalls: [toolCall("nh_evaluate", { expression: "1 + 1" })] }),
  () => ({ toolCalls: [toolCall("nh_output", { result: { kind: "pass" } })] }),
]);
nh.activeSession()!.configure({ executor: new nh.AgentExecutor({ model: approvalModel }), oversight: { inspectOperation: nh.operatorApproval({ timeoutMs: 10000, kinds: ["evaluate", "output"] }) } });"""
# A separate cell: the Session approves functions a cell declares (kept apart from the imports above).
APPROVAL_FUNCTION = """async function askFirst() { await nh.step({ program: "execute\\nAdd." }); return "done"; }"""


def operator_approval(km, kc):
    setup = kc.execute_interactive(APPROVAL_SETUP, timeout=60, output_hook=lambda m: None)
    kc.execute_interactive(APPROVAL_FUNCTION, timeout=60, output_hook=lambda m: None)
    prompts = []

    def answer(req):
        prompts.append(req["content"]["prompt"])
        kc.input("reject not now|finish instead" if len(prompts) == 1 else "accept")

    msg_id = kc.execute("await askFirst()", allow_stdin=True)
    reply, iopub = collect(kc, msg_id, timeout=30, on_stdin=answer)
    results = [m["content"]["data"].get("text/plain") for m in iopub if m["msg_type"] == "execute_result"]
    runs = [m["content"]["data"].get("text/plain", "") for m in iopub if m["msg_type"] in ("display_data", "update_display_data") and any("run" in k for k in m["content"]["data"])]
    return {"setup": setup["content"]["status"], "prompts": prompts, "status": reply and reply["content"], "results": results, "last_run_text": runs[-1] if runs else None}


def escaped_error(km, kc):
    """A throw in a timer escapes the cell: reported on its stderr with cell frames, and the kernel goes on."""
    code = 'function explode() {\n  throw new RangeError("late throw");\n}\nsetTimeout(() => explode(), 10);\nawait new Promise((r) => setTimeout(r, 200));'
    msg_id = kc.execute(code)
    reply, iopub = collect(kc, msg_id)
    stderr = "".join(m["content"]["text"] for m in iopub if m["msg_type"] == "stream" and m["content"]["name"] == "stderr")
    after = kc.execute_interactive("1 + 1", timeout=20, output_hook=lambda m: None)
    return {"status": reply and reply["content"]["status"], "execution_count": reply and reply["content"].get("execution_count"), "stderr": stderr, "after": after["content"]["status"]}


def restart(km, kc):
    kc.execute_interactive("(globalThis as Record<string, unknown>).restartMarker = 'before restart'", timeout=20, output_hook=lambda m: None)
    old_pid = km.provisioner.process.pid
    km.restart_kernel(now=False)
    kc.wait_for_ready(timeout=60)
    new_pid = km.provisioner.process.pid
    results = []
    reply = kc.execute_interactive("typeof (globalThis as Record<string, unknown>).restartMarker", timeout=60, output_hook=lambda m: results.append(m["content"]["data"]["text/plain"]) if m["msg_type"] == "execute_result" else None)
    return {"new_process": old_pid != new_pid, "status": reply["content"]["status"], "execution_count": reply["content"].get("execution_count"), "marker": results}


def shutdown(km, kc):
    """shutdown_request on control: the reply echoes the restart flag, then the process exits with 0."""
    process = km.provisioner.process
    control = km.connect_control()
    kc.session.send(control, kc.session.msg("shutdown_request", {"restart": True}))
    reply = kc.session.recv(control)[1]["content"] if control.poll(10000) else None
    control.close(linger=0)
    kc.stop_channels()
    try:
        code = process.wait(timeout=10)
    except Exception:
        code = None
    return {"reply": reply, "exit_code": code}


def main():
    kernel = sys.argv[1]
    km, kc = start_new_kernel(kernel_name=kernel, startup_timeout=60)
    report = {}
    try:
        kc.execute_interactive("0", timeout=60, output_hook=lambda m: None)
        report["heartbeat"] = heartbeat(km)
        report["forged_signature"] = forged_signature(km, kc)
        report["interrupt_by_signal"] = interrupt_by_signal(km, kc)
        report["interrupt_by_message"] = interrupt_by_message(km, kc)
        report["abandoned_by_console"] = abandoned_by_console(km, kc)
        report["operator_approval"] = operator_approval(km, kc)
        report["escaped_error"] = escaped_error(km, kc)
        report["restart"] = restart(km, kc)
        report["shutdown"] = shutdown(km, kc)
    finally:
        if km.is_alive():
            km.shutdown_kernel(now=True)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
