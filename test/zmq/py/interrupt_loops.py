"""Interrupting loops that never yield, through jupyter_client (SIGINT to the kernel's process group).

For each loop kind: the cell's reply after km.interrupt_kernel(), and whether an earlier cell's value is kept.
Usage: interrupt_loops.py <kernel_name>; prints one JSON report.
"""
import json
import sys
import time

from kernel_waits import kept_value, reply_for, started_kernel, wait_for_stream


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
    report = {}
    with started_kernel(sys.argv[1]) as (km, kc):
        kc.execute_interactive("let kept = 41", timeout=60, output_hook=lambda m: None)
        report["await_null"] = spin(km, kc, "for (;;) { await null; }")
        report["await_null_kept"] = kept_value(km, kc, "kept + 1")
        report["promise_resolve"] = spin(km, kc, "for (;;) { await Promise.resolve(); }")
        report["promise_resolve_kept"] = kept_value(km, kc, "kept + 1")
        kc.execute_interactive("setTimeout(() => { while (true) {} }, 200)", timeout=30, output_hook=lambda m: None)
        time.sleep(0.8)
        msg_id = kc.execute("kept + 1")
        time.sleep(0.5)
        km.interrupt_kernel()
        report["timer"] = {"reply": reply_for(kc, msg_id), "alive": km.is_alive()}
        report["timer_kept"] = kept_value(km, kc, "kept + 1")
        report["prompt_await"] = prompt(km, kc, "await new Promise(() => {});", 12)
        report["prompt_sync"] = prompt(km, kc, "for (;;) {}", 6) if km.is_alive() else None
        report["prompt_kept"] = kept_value(km, kc, "kept + 1")
    print(json.dumps(report))


if __name__ == "__main__":
    main()
