"""Interrupting loops that never yield, through jupyter_client (SIGINT to the kernel's process group).

For each loop kind: the cell's reply after km.interrupt_kernel(), and whether an earlier cell's value is kept.
Usage: interrupt_loops.py <kernel_name>; prints one JSON report.
"""
import json
import sys
import time

from jupyter_client.manager import start_new_kernel

from kernel_waits import reply_for, value_of, wait_for_stream


def spin(km, kc, code):
    msg_id = kc.execute('console.log("started"); ' + code)
    started = wait_for_stream(kc, msg_id, "started")
    time.sleep(0.3)
    km.interrupt_kernel()
    return {"started": started, "reply": reply_for(kc, msg_id), "alive": km.is_alive()}


def prompt(km, kc, code, rounds):
    """Interrupts as soon as the cell's first output arrives, as a client reacting to it does: round by round."""
    replies = []
    for _ in range(rounds):
        msg_id = kc.execute('console.log("started"); ' + code)
        if not wait_for_stream(kc, msg_id, "started"):
            replies.append("no output")
            break
        km.interrupt_kernel()
        reply = reply_for(kc, msg_id, timeout=15)
        replies.append(reply["ename"] if reply else "no reply")
        if not km.is_alive():
            break
    return {"replies": replies, "alive": km.is_alive()}


def main():
    km, kc = start_new_kernel(kernel_name=sys.argv[1], startup_timeout=60)
    report = {}
    try:
        kc.execute_interactive("let kept = 41", timeout=60, output_hook=lambda m: None)
        report["await_null"] = spin(km, kc, "for (;;) { await null; }")
        report["await_null_kept"] = value_of(kc, "kept + 1") if km.is_alive() else None
        report["promise_resolve"] = spin(km, kc, "for (;;) { await Promise.resolve(); }")
        report["promise_resolve_kept"] = value_of(kc, "kept + 1") if km.is_alive() else None
        kc.execute_interactive("setTimeout(() => { while (true) {} }, 200)", timeout=30, output_hook=lambda m: None)
        time.sleep(0.8)
        msg_id = kc.execute("kept + 1")
        time.sleep(0.5)
        km.interrupt_kernel()
        report["timer"] = {"reply": reply_for(kc, msg_id), "alive": km.is_alive()}
        report["timer_kept"] = value_of(kc, "kept + 1") if km.is_alive() else None
        report["prompt_await"] = prompt(km, kc, "await new Promise(() => {});", 12)
        report["prompt_sync"] = prompt(km, kc, "for (;;) {}", 6) if km.is_alive() else None
        try:
            report["prompt_kept"] = value_of(kc, "kept + 1") if km.is_alive() else None
        except TimeoutError:
            report["prompt_kept"] = "no answer"
    finally:
        kc.stop_channels()
        if km.is_alive():
            km.shutdown_kernel(now=True)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
