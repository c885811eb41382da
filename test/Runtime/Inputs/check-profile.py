"""Checks a kernel profile (FUSE_KERNEL_PROFILE) against the library it came
from: one line per kernel of the fusion report (<function>__group<id>_kernel),
each launched `launches` times, total = launches x median when every launch
took the same time (the fake driver's clock), min <= median."""
import json
import sys

profile, report, launches = sys.argv[1], sys.argv[2], int(sys.argv[3])
groups = {f"{fn['name']}__group{g['id']}_kernel" for fn in json.load(open(report))["functions"]
          for g in fn["groups"]}
lines = [l.rstrip("\n").split("\t") for l in open(profile) if not l.startswith("#")]
names = {l[0] for l in lines}
if names != groups:
    sys.exit(f"profile kernels {sorted(names ^ groups)} differ from the report's groups")
for name, n, median, minimum, total in lines:
    n, median, minimum, total = int(n), float(median), float(minimum), float(total)
    if n != launches:
        sys.exit(f"{name}: {n} launches, expected {launches}")
    if not (0 < minimum <= median) or abs(total - n * median) > 1e-5 * total:
        sys.exit(f"{name}: inconsistent times median {median} min {minimum} total {total}")
print(f"profile consistent: {len(lines)} kernels, {launches} launches each")
