#!/usr/bin/python3
"""Runs a ThreadSanitizer build: prints its output and 'tsan: clean' when it
exits 0 with no report; exits 1 on a report or any failure. When the
sanitizer cannot start on this kernel (its memory-mapping check), retries
with address-space randomization off (setarch -R)."""
import subprocess
import sys


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, errors="replace")


def main():
    proc = run(sys.argv[1:])
    if "unexpected memory mapping" in proc.stderr:
        proc = run(["setarch", "-R"] + sys.argv[1:])
    sys.stdout.write(proc.stdout)
    sys.stderr.write(proc.stderr)
    if proc.returncode != 0 or "WARNING: ThreadSanitizer" in proc.stderr:
        print("tsan: FAILED")
        return 1
    print("tsan: clean")
    return 0


if __name__ == "__main__":
    sys.exit(main())
