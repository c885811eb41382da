#!/usr/bin/python3
"""Prints a fuse fusion report (the JSON of fuse-form-groups report=...) as
plain text: one line per group, the refused candidates, the ops left alone
and the totals. fuse-compile --report-text prints the same text."""
import json
import sys


def human_bytes(n):
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(n) < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024.0


def op_name(op):
    """An op as the report names it: with the model's node name
    (linalg.matmul@/layers.0/q/MatMul), without a location in a file."""
    name, _, where = op.partition("@")
    return name if not where or ".mlir:" in where or ".mlirbc:" in where or where.startswith("-:") else op


def print_memory(m):
    print(f"  memory: {human_bytes(m['unfused_naive'])} of intermediates unfused; "
          f"{m['buffers']} buffer(s) between kernels, {human_bytes(m['naive'])} one by one -> "
          f"arena {human_bytes(m['arena'])} (max-live bound {human_bytes(m['max_live'])}, "
          f"ratio {m['ratio']:.4f}, {human_bytes(m['in_place_bytes'])} in place, {m['strategy']})")
    order = m.get("kernel_order")
    if order and order["max_live_source_order"]:
        print(f"  kernel order: {order['strategy']}, max-live {human_bytes(order['max_live_source_order'])} "
              f"in the source order -> {human_bytes(order['max_live'])} "
              f"(no order below {human_bytes(order['bound'])})")
    plan = m.get("workspace_plan")
    if plan:
        print(f"  workspace as built: arena {human_bytes(plan['arena'])} for buffers of "
              f"{human_bytes(plan['naive'])} one by one ({human_bytes(plan['in_place_bytes'])} in place, "
              f"{plan['strategy']})")
    fp = m.get("footprint")
    if fp:
        print(f"  footprint: weights {human_bytes(fp['weights'])} + workspace "
              f"{human_bytes(fp.get('workspace', fp['arena']))} "
              f"= {human_bytes(fp['model'])} for the model; with inputs {human_bytes(fp['inputs'])} "
              f"and outputs {human_bytes(fp['outputs'])}, {human_bytes(fp['total'])}")


def main(path):
    with open(path) as f:
        report = json.load(f)
    target = report["target"]
    print(f"target {target['name']} ({target['arch']}, {target['sms']} SMs, "
          f"{target['smem_per_block']} B smem/block, {target['dram_gbps']} GB/s)")
    cpu = report.get("cpu_target")
    if cpu:
        print(f"cpu target {cpu['name']} ({cpu['vector_bits']}-bit vectors, "
              f"{cpu['vector_registers']} registers, L1 {human_bytes(cpu['l1_bytes'])}, "
              f"L2 {human_bytes(cpu['l2_bytes'])}, L3 {human_bytes(cpu['l3_bytes'])})")
    for fn in report["functions"]:
        print(f"\n@{fn['name']}: {fn['kernels_before']} kernels -> {fn['kernels_after']}, "
              f"bytes between kernels {human_bytes(fn['bytes_before'])} -> "
              f"{human_bytes(fn['bytes_after'])}")
        print_memory(fn["memory"])
        for g in fn["groups"]:
            rule = f" by {g['rule']}" if g["rule"] else ""
            ops = ", ".join(op_name(op) for op in g["ops"])
            bound = f" [{g['bound']}-bound, {g['intensity']:.1f} FLOP/B]" if "bound" in g else ""
            print(f"  group {g['id']}: {g['kind']}{rule}: {ops}{bound}")
            config, predicted = g.get("lowering_config"), g.get("predicted")
            if config and predicted:
                tile = "x".join(str(t) for t in config["tile"])
                split = f" x split-K {config['split_k']}" if config.get("split_k") else ""
                print(f"    schedule {config['schedule']}: tile {tile}, {config['blocks']} blocks{split} of "
                      f"{config['threads']} threads ({config['instruction']}, {config['precision']}); "
                      f"predicted {predicted['us']:.1f} us, {predicted['bound']}-bound")
            cpu = config.get("cpu") if config else None
            if cpu and cpu["kind"] == "loops":
                print("    cpu: loops (vectorized along the contiguous dimension)")
            elif cpu:
                blocks = f", K blocks of {cpu['k_block']}" if cpu["k_block"] else ""
                print(f"    cpu: {cpu['kind'].replace('_', ' ')} {cpu['mr']}x{cpu['nr']}, "
                      f"K step {cpu['kc']}{blocks}")
            if g["bytes_saved"]:
                print(f"    saves {human_bytes(g['bytes_saved'])} and "
                      f"{len(g['ops']) - 1} launch(es), ~{g['time_saved_us']:.2f} us")
        for r in fn.get("relayouts", []):
            print(f"  weights re-laid out {r['from']} -> {r['to']} for group {r.get('group', '?')}: "
                  f"{op_name(r['op'])} ({human_bytes(r['bytes'])})")
        for r in fn["rejected"]:
            print(f"  refused {r['rule']} {r['anchor']} + {r['candidate']}: "
                  f"[{r['check']}] {r['reason']}")
        for a in fn["left_alone"]:
            print(f"  left alone {a['op']}: {'; '.join(a['reasons'])}")
    t = report["totals"]
    predicted = f", kernels predicted {t['predicted_us'] / 1000:.3f} ms" if t.get("predicted_us") else ""
    print(f"\ntotal: {t['kernels_before']} kernels -> {t['kernels_after']}, "
          f"{human_bytes(t['bytes_before'])} -> {human_bytes(t['bytes_after'])} between kernels{predicted}")
    print_memory(report["memory"])


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: report-summary.py REPORT.json")
    main(sys.argv[1])
