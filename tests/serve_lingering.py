"""`workbench serve` whose tabs' apps draw all the time and take a while to end: asked to quit, each goes on drawing
for :data:`LINGER` seconds, then says it exits, as a Textual app does. ``python -m tests.serve_lingering serve
ARGUMENTS…`` runs the server (its warm process is this module too, which forks this app in place of the
workbench's). Each app writes how it ended (``ended``, or ``broken pipe`` where a write met a pipe the server had
closed) to a file of its own in the folder ``WORKBENCH_TEST_OUTCOMES`` names."""

import json
import os
import sys
import time

LINGER = 0.5
FRAME = b"D" + (100).to_bytes(4, "big") + b"x" * 100
"""A data packet, as Textual's web driver frames one."""


def lingering_app(app_options) -> int:
    outcome = "ended"
    try:
        os.write(1, b"__GANGLION__\n")  # what textual-serve waits for from an app
        os.set_blocking(0, False)
        until = None
        while until is None or time.monotonic() < until:
            os.write(1, FRAME)
            try:
                asked = os.read(0, 1 << 16)
            except BlockingIOError:
                asked = None
            if until is None and (asked == b"" or (asked and b'"quit"' in asked)):  # asked to quit, or input closed
                until = time.monotonic() + LINGER
            time.sleep(0.005)
        exit_meta = json.dumps({"type": "exit"}).encode()
        os.write(1, b"M" + len(exit_meta).to_bytes(4, "big") + exit_meta)
    except BrokenPipeError:
        outcome = "broken pipe"
    with open(os.path.join(os.environ["WORKBENCH_TEST_OUTCOMES"], str(os.getpid())), "w") as kept:
        kept.write(outcome)
    return 0


if __name__ == "__main__":
    from tests.serve_stubborn import serve_with

    sys.exit(serve_with("tests.serve_lingering", lingering_app, sys.argv[1:]))
