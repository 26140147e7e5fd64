"""Benchmark driver (bench/zmq-kernel.bench.ts): cold start and `1+1` round trips through jupyter_client.

Usage: roundtrip_bench.py <kernel_name> <round_trips> <cold_starts> [<import_cell>]
Prints one JSON object: cold_start_ms (KernelManager.start_kernel to the first kernel_info_reply, the
request sent as soon as the channels are up), first_execute_ms (start to the reply of a `1+1` sent right after
that kernel_info_reply), round_trip_ms (execute_request to its execute_reply and idle),
lost (round trips whose reply or idle never arrived within 2 s), and with an import cell, rss_mb: per cold start,
the kernel process's resident memory one second after the first `1+1` and one second after the import cell ran.
The kernel process is the one that ran the cells (a cell asks its pid): a kernel from the kernel pool is not the
process Jupyter started, which stands in for it; that launcher's private memory is added to the kernel's.
With 0 round trips no kernel is started for them. hung: where each cold start that did not finish within
START_BUDGET_S stopped; such a start is ended and made again (at most MAX_HUNG_STARTS times in a row).
"""
import json
import sys
import time
from queue import Empty

from jupyter_client.manager import KernelManager

from kernel_waits import first_message

WAIT_S = 2.0
# Far above any start seen here (a few seconds), far below the bench's per-driver timeout.
START_BUDGET_S = 45
MAX_HUNG_STARTS = 2


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:")) / 1024


def private_mb(pid):
    with open(f"/proc/{pid}/smaps_rollup") as f:
        return sum(int(line.split()[1]) for line in f if line.startswith(("Private_Clean:", "Private_Dirty:"))) / 1024


class StartHung(Exception):
    """A cold start that did not finish within START_BUDGET_S; `stage` says where it stopped."""

    def __init__(self, stage):
        super().__init__(stage)
        self.stage = stage


class Budget:
    """One deadline for everything a cold start waits for: no message loop can wait past it."""

    def __init__(self, seconds):
        self.deadline = time.perf_counter() + seconds
        self.stage = "start_kernel"

    def left(self):
        left = self.deadline - time.perf_counter()
        if left <= 0:
            raise StartHung(self.stage)
        return left

    def until(self, msg):
        if msg is None:
            raise StartHung(self.stage)
        return msg

    def shell(self, kc, msg_id):
        return self.until(first_message(kc.get_shell_msg, msg_id, timeout=self.left()))

    def printed(self, kc, code):
        """What the cell writes with console.log (tslab's idle can come before a late execute_result)."""
        text = []

        def accept(msg):
            if msg["msg_type"] == "stream":
                text.append(msg["content"]["text"])
            return msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle"

        self.until(first_message(kc.get_iopub_msg, kc.execute(code), accept, timeout=self.left()))
        return "".join(text)


def cold_start(kernel, import_cell=None):
    km = KernelManager(kernel_name=kernel)
    budget = Budget(START_BUDGET_S)
    kc = None
    t0 = time.perf_counter()
    try:
        km.start_kernel()
        kc = km.client()
        kc.start_channels()
        budget.stage = "kernel_info"
        budget.shell(kc, kc.kernel_info())
        elapsed = (time.perf_counter() - t0) * 1000
        budget.stage = "first execute"
        budget.shell(kc, kc.execute("1+1"))
        first_execute = (time.perf_counter() - t0) * 1000
        rss = None
        if import_cell:
            launcher = km.provisioner.process.pid
            budget.stage = "pid cell"
            pid = int(budget.printed(kc, "console.log(process.pid)").strip())
            memory = lambda: rss_mb(pid) + (private_mb(launcher) if launcher != pid else 0)
            time.sleep(1)
            after_first = memory()
            budget.stage = "import cell"
            reply = budget.shell(kc, kc.execute(import_cell))
            if reply["content"]["status"] != "ok":
                raise RuntimeError(f"import cell failed: {reply['content']}")
            time.sleep(1)
            rss = {"after_first_cell": after_first, "after_import": memory(), "pooled": launcher != pid}
        return elapsed, first_execute, rss
    finally:
        if kc is not None:
            kc.stop_channels()
        if km.has_kernel:
            km.shutdown_kernel(now=True)


def cold_start_again_if_hung(kernel, import_cell, hung):
    """A start that hangs (seen with tslab's kernel, rarely) is ended and made again, and counted in `hung`."""
    for _ in range(MAX_HUNG_STARTS):
        try:
            return cold_start(kernel, import_cell)
        except StartHung as error:
            hung.append(error.stage)
            print(f"{kernel}: a cold start did not finish ({error.stage}) within {START_BUDGET_S} s; starting it again", file=sys.stderr)
    raise RuntimeError(f"{kernel}: {MAX_HUNG_STARTS} cold starts in a row did not finish: {hung}")


def round_trip(kc):
    msg_id = kc.execute("1+1")
    deadline = time.perf_counter() + WAIT_S
    got_reply = got_idle = False
    while not (got_reply and got_idle):
        left = deadline - time.perf_counter()
        if left <= 0:
            return False
        if not got_reply:
            try:
                msg = kc.get_shell_msg(timeout=min(left, 0.001) if got_idle else 0)
                got_reply = msg["parent_header"].get("msg_id") == msg_id
            except Empty:
                pass
        if not got_idle:
            try:
                msg = kc.get_iopub_msg(timeout=min(left, 0.001))
                got_idle = (
                    msg["parent_header"].get("msg_id") == msg_id
                    and msg["msg_type"] == "status"
                    and msg["content"]["execution_state"] == "idle"
                )
            except Empty:
                pass
    return True


def main():
    kernel, n, cold = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    import_cell = sys.argv[4] if len(sys.argv) > 4 else None
    hung = []
    colds = [cold_start_again_if_hung(kernel, import_cell, hung) for _ in range(cold)]
    if n == 0:
        print(json.dumps({"cold_start_ms": [c[0] for c in colds], "first_execute_ms": [c[1] for c in colds], "round_trip_ms": [], "lost": 0, "rss_mb": [c[2] for c in colds if c[2]], "hung": hung}))
        return
    km = KernelManager(kernel_name=kernel)
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=60)
    for _ in range(30):
        round_trip(kc)
    samples, lost = [], 0
    for _ in range(n):
        t0 = time.perf_counter()
        if round_trip(kc):
            samples.append((time.perf_counter() - t0) * 1000)
        else:
            lost += 1
    kc.stop_channels()
    km.shutdown_kernel(now=True)
    print(json.dumps({"cold_start_ms": [c[0] for c in colds], "first_execute_ms": [c[1] for c in colds], "round_trip_ms": samples, "lost": lost, "rss_mb": [c[2] for c in colds if c[2]], "hung": hung}))


if __name__ == "__main__":
    main()
