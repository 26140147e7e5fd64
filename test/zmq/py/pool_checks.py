"""Kernel pool checks through jupyter_client (test/zmq/kernel-pool.test.ts).

Usage: pool_checks.py <kernel_name> <cli.js> <scenario> [<dir>]
Prints one JSON object of observations. The pool is on in the environment this runs with
(NIGHTHAWK_KERNEL_POOL, NIGHTHAWK_KERNEL_POOL_DIR); `kernel pool status` is asked through the CLI.
"""
import json
import os
import subprocess
import sys
import time

from jupyter_client.manager import KernelManager

KERNEL, CLI, SCENARIO = sys.argv[1], sys.argv[2], sys.argv[3]
DIR = sys.argv[4] if len(sys.argv) > 4 else None


def pool_status():
    return subprocess.run(["node", CLI, "kernel", "pool", "status"], capture_output=True, text=True, timeout=30).stdout


def wait_spare(root=None, timeout=60):
    end = time.time() + timeout
    while time.time() < end:
        out = pool_status()
        for line in out.splitlines():
            if " ready in " in line and (root is None or line.endswith(" in " + root)):
                return True
        time.sleep(0.3)
    return False


def ensure_spare():
    """A warm spare here, starting (and stopping) a kernel first if no daemon runs yet."""
    if "no kernel pool daemon" in pool_status():
        km, kc = start()
        run(kc, "1+1", 120)
        stop(km, kc)
    return wait_spare()


def alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False


def wait_until(check, timeout=10):
    end = time.time() + timeout
    while time.time() < end:
        if check():
            return True
        time.sleep(0.1)
    return check()


def wait_gone(pid, timeout=10):
    return wait_until(lambda: not alive(pid), timeout)


def start(cwd=None):
    km = KernelManager(kernel_name=KERNEL)
    km.start_kernel(**({"cwd": cwd} if cwd else {}))
    kc = km.client()
    kc.start_channels()
    return km, kc


def run(kc, code, timeout=30):
    """Sends `code` at once (no kernel_info first) and collects its iopub until idle: (status, text, outputs seen)."""
    msg_id = kc.execute(code)
    text, seen, status = None, [], None
    end = time.time() + timeout
    idle = False
    while not idle and time.time() < end:
        try:
            msg = kc.get_iopub_msg(timeout=max(0.01, end - time.time()))
        except Exception:
            break
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        seen.append(msg["msg_type"])
        if msg["msg_type"] == "execute_result":
            text = msg["content"]["data"].get("text/plain")
        if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            idle = True
    while time.time() < end:
        try:
            reply = kc.get_shell_msg(timeout=max(0.01, end - time.time()))
        except Exception:
            break
        if reply["parent_header"].get("msg_id") == msg_id:
            status = reply["content"]["status"]
            break
    return status, text, seen


def stop(km, kc, now=True):
    kc.stop_channels()
    km.shutdown_kernel(now=now)


def value(text):
    return None if text is None else text.strip("'\"")


def kernel_pid(kc):
    return int(value(run(kc, "String(process.pid)")[1]))


def pooled(km, kc):
    """True when the kernel answering is not the process Jupyter started (a spare stands behind the launcher)."""
    return kernel_pid(kc) != km.provisioner.process.pid


def handoff():
    out = {}
    km, kc = start()
    out["cold"] = run(kc, "1+1", 120)[1]
    out["cold_pid_is_launcher"] = value(run(kc, "String(process.pid)")[1]) == str(km.provisioner.process.pid)
    stop(km, kc, now=False)
    out["spare"] = wait_spare()
    km, kc = start()
    launcher = km.provisioner.process.pid
    # Sent before any kernel_info, the moment the channels are up: its busy, result and idle must all arrive.
    out["first"] = run(kc, "1+1")
    kernel = kernel_pid(kc)
    out["pooled_pid_differs"] = kernel != launcher
    out["jpy_parent_pid"] = value(run(kc, "String(process.env.JPY_PARENT_PID)")[1]) == str(os.getpid())
    out["cwd"] = value(run(kc, "process.cwd()")[1])
    kc.execute("for (;;) {}")
    time.sleep(0.5)
    km.interrupt_kernel()
    deadline = time.time() + 20
    out["interrupted"] = None
    while time.time() < deadline:
        reply = kc.get_shell_msg(timeout=20)
        if reply["msg_type"] == "execute_reply" and reply["content"]["status"] != "ok":
            out["interrupted"] = reply["content"].get("ename")
            break
    out["after_interrupt"] = run(kc, "40 + 2")[1]
    stop(km, kc, now=False)
    out["kernel_gone_after_shutdown"] = wait_gone(kernel)
    return out


def killed():
    out = {"spare": ensure_spare()}
    km, kc = start()
    kernel = kernel_pid(kc)
    out["pooled"] = kernel != km.provisioner.process.pid  # one pid read: it is also the process watched below
    # SIGKILL to the launcher's process group: nothing can be relayed, the kernel must notice on its own.
    stop(km, kc, now=True)
    out["kernel_gone"] = wait_gone(kernel)
    return out


def private_mb(pid):
    with open(f"/proc/{pid}/smaps_rollup") as f:
        return sum(int(line.split()[1]) for line in f if line.startswith(("Private_Clean:", "Private_Dirty:"))) / 1024


def launcher_exits(km, timeout=10):
    return wait_until(lambda: not km.is_alive(), timeout)


def signal_launcher(signum):
    """Starts a pooled kernel and sends `signum` to the process Jupyter started alone: (kernel gone, launcher gone)."""
    km, kc = start()
    kernel = kernel_pid(kc)
    os.kill(km.provisioner.process.pid, signum)
    gone = wait_gone(kernel), launcher_exits(km)
    kc.stop_channels()
    km.cleanup_resources()
    return gone


def stand_in():
    """The process Jupyter started for a pooled kernel is the kernelspec's shell, and the two live and die together."""
    out = {"spare": ensure_spare()}
    # The kernel exits (a cell ends it): the shell standing in exits too, so Jupyter sees the kernel die.
    km, kc = start()
    launcher = km.provisioner.process.pid
    kernel = kernel_pid(kc)
    out["pooled"] = kernel != launcher
    with open(f"/proc/{launcher}/comm") as f:
        out["launcher"] = f.read().strip()
    time.sleep(0.5)
    out["launcher_small"] = private_mb(launcher) < 2
    kc.execute("process.exit(3)")
    out["launcher_follows_kernel"] = wait_gone(kernel) and launcher_exits(km)
    kc.stop_channels()
    # SIGTERM to the shell alone (not its group) is relayed: the kernel ends, then the shell.
    out["spare_again"] = wait_spare()
    out["term_relayed"] = all(signal_launcher(15))
    # SIGKILL to the shell alone: its reader lives on, but nothing holds the kernel's FIFO open any more.
    out["spare_third"] = wait_spare()
    out["kernel_gone_after_shell_killed"] = signal_launcher(9)[0]
    return out


def client_child(independent=False):
    """A Jupyter client that starts a pooled kernel, reports both pids and dies without shutting anything down.
    `independent`: launched as jupyter_client launches a kernel it does not own, with no JPY_PARENT_PID."""
    km = KernelManager(kernel_name=KERNEL)
    km.start_kernel(**({"independent": True} if independent else {}))
    kc = km.client()
    kc.start_channels()
    print(json.dumps({"kernel": kernel_pid(kc), "launcher": km.provisioner.process.pid}), flush=True)
    os._exit(0)


def client_gone(child_scenario="client_child"):
    """The client (JPY_PARENT_PID, else the shell's parent) dies and leaves the launcher shell running: the pooled
    kernel notices, and both end."""
    out = {"spare": ensure_spare()}
    # The kernel's launcher inherits the client's output: read the client's line, not until the pipe closes, and
    # keep this script's own output away from it (the test reads that until it closes).
    child = subprocess.Popen([sys.executable, __file__, KERNEL, CLI, child_scenario], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    pids = json.loads(child.stdout.readline())
    child.wait(30)
    out["pooled"] = pids["kernel"] != pids["launcher"]
    out["kernel_gone"] = wait_gone(pids["kernel"], 15)
    out["launcher_gone"] = wait_gone(pids["launcher"], 5)
    for pid in (pids["kernel"], pids["launcher"]):
        if alive(pid):
            os.kill(pid, 9)
    return out


def restart():
    out = {"spare": ensure_spare()}
    km, kc = start()
    out["defined"] = run(kc, "const kept = 41; kept + 1")[1]
    out["spare_again"] = wait_spare()
    km.restart_kernel(now=False)
    kc.stop_channels()
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=120)
    status, _, seen = run(kc, "kept", 120)
    out["after_restart"] = [status, "error" in seen]
    out["restart_pooled"] = pooled(km, kc)
    stop(km, kc, now=False)
    return out


def other_root():
    out = {"spare_here": ensure_spare()}
    km, kc = start(cwd=DIR)
    out["first_cwd"] = value(run(kc, "process.cwd()", 120)[1])
    out["first_pooled"] = pooled(km, kc)
    stop(km, kc)
    out["spare_there"] = wait_spare(DIR)
    km, kc = start(cwd=DIR)
    out["second_cwd"] = value(run(kc, "process.cwd()", 120)[1])
    out["second_pooled"] = pooled(km, kc)
    stop(km, kc)
    return out


print(json.dumps({"handoff": handoff, "killed": killed, "stand_in": stand_in, "client_child": client_child, "client_gone": client_gone,
            "client_child_unnamed": lambda: client_child(True), "client_gone_unnamed": lambda: client_gone("client_child_unnamed"), "restart": restart, "other_root": other_root}[SCENARIO]()))
