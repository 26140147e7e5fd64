"""jupyter_kernel_test's conformance suite against the installed Nighthawk TS kernelspec.

The kernelspec name comes from NIGHTHAWK_KERNEL_NAME; JUPYTER_PATH must point at the prefix it was installed in.
"""
import os
import unittest

import jupyter_kernel_test


class NighthawkKernelTests(jupyter_kernel_test.KernelTests):
    kernel_name = os.environ.get("NIGHTHAWK_KERNEL_NAME", "nighthawk")
    language_name = "typescript"
    file_extension = ".ts"

    code_hello_world = 'console.log("hello, world")'
    code_stderr = 'console.error("something went wrong")'

    completion_samples = [
        {"text": "Math.flo", "matches": {"floor"}},
        {"text": "const greeting = 'hi';\ngreeting.toUpper", "matches": {"toUpperCase"}},
    ]

    complete_code_samples = ["1 + 1", "let x = 1;", "function f(a: number) { return a; }", "const s = `a\nb`;"]
    incomplete_code_samples = ["function f() {", "if (true) {", "Math.max(1,", "const s = `open"]
    invalid_code_samples = ["1 +* 2", "const = 1", "x = )"]

    code_page_something = "?console.log"
    code_clear_output = "console.clear()"
    code_generate_error = 'throw new Error("boom")'

    code_execute_result = [
        {"code": "1 + 2", "result": "3"},
        {"code": "'a' + 'b'", "result": "'ab'"},
        {"code": "({ n: 1 })", "mime": "application/json"},
    ]
    code_display_data = [
        {"code": 'import * as tslab from "tslab";\ntslab.display.html("<b>hi</b>")', "mime": "text/html"},
        {"code": 'import * as tslab from "tslab";\ntslab.display.markdown("*hi*")', "mime": "text/markdown"},
        {"code": 'import * as tslab from "tslab";\ntslab.display.svg("<svg xmlns=\'http://www.w3.org/2000/svg\'/>")', "mime": "image/svg+xml"},
        {"code": 'import * as tslab from "tslab";\ntslab.display.png(new Uint8Array([137, 80, 78, 71]))', "mime": "image/png"},
        {"code": 'import * as tslab from "tslab";\ntslab.display.jpeg(new Uint8Array([255, 216, 255]))', "mime": "image/jpeg"},
        {"code": 'import * as tslab from "tslab";\ntslab.display.text("plain words")', "mime": "text/plain"},
    ]

    code_history_pattern = "1*2"
    supported_history_operations = ("tail", "range", "search")

    code_inspect_sample = "console.log"


if __name__ == "__main__":
    unittest.main()
