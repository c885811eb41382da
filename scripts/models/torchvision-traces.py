#!/usr/bin/python3
"""Buffer-lifetime traces of torchvision networks of every family, in their
ONNX node order (scripts/onnx-trace.py): each network exported from PyTorch
(weights=None, eval mode, opset 13, batch 1) to a temporary file, its trace
written to OUT_DIR/<name>.csv. A network that does not export (or whose
trace cannot be sized) is reported on stderr and skipped; the exit status is
1 when none was written.

usage: torchvision-traces.py OUT_DIR [--only NAME,...]
"""
import argparse
import os
import subprocess
import sys
import tempfile
import warnings

warnings.filterwarnings("ignore")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# (name, family, input shape): classification networks of each architecture
# family torchvision has, and segmentation and video ones.
NETWORKS = [
    ("alexnet", "classification: plain", (1, 3, 224, 224)),
    ("vgg16", "classification: plain", (1, 3, 224, 224)),
    ("resnet50", "classification: residual", (1, 3, 224, 224)),
    ("resnext50_32x4d", "classification: grouped residual", (1, 3, 224, 224)),
    ("wide_resnet50_2", "classification: residual", (1, 3, 224, 224)),
    ("densenet121", "classification: dense", (1, 3, 224, 224)),
    ("densenet201", "classification: dense", (1, 3, 224, 224)),
    ("squeezenet1_1", "classification: fire modules", (1, 3, 224, 224)),
    ("googlenet", "classification: inception", (1, 3, 224, 224)),
    ("inception_v3", "classification: inception", (1, 3, 299, 299)),
    ("mobilenet_v2", "classification: inverted residual", (1, 3, 224, 224)),
    ("mobilenet_v3_large", "classification: inverted residual, SE, hard-swish", (1, 3, 224, 224)),
    ("mnasnet1_0", "classification: NAS", (1, 3, 224, 224)),
    ("shufflenet_v2_x1_0", "classification: channel shuffle", (1, 3, 224, 224)),
    ("efficientnet_b0", "classification: SE, SiLU", (1, 3, 224, 224)),
    ("efficientnet_v2_s", "classification: fused MBConv", (1, 3, 384, 384)),
    ("efficientnet_b7", "classification: SE, SiLU", (1, 3, 600, 600)),
    ("regnet_y_800mf", "classification: RegNet", (1, 3, 224, 224)),
    ("convnext_tiny", "classification: ConvNeXt", (1, 3, 224, 224)),
    ("vit_b_16", "classification: transformer", (1, 3, 224, 224)),
    ("swin_t", "classification: windowed transformer", (1, 3, 224, 224)),
    ("fcn_resnet50", "segmentation", (1, 3, 320, 320)),
    ("deeplabv3_mobilenet_v3_large", "segmentation: dilated", (1, 3, 320, 320)),
    ("lraspp_mobilenet_v3_large", "segmentation", (1, 3, 320, 320)),
    ("r3d_18", "video: 3-D convolutions", (1, 3, 8, 112, 112)),
]


def build(name):
    import torchvision.models as tv
    import torchvision.models.segmentation as seg
    import torchvision.models.video as video
    for module in (tv, seg, video):
        make = getattr(module, name, None)
        if make is not None:
            kwargs = {"weights": None}
            if module is seg:
                kwargs["weights_backbone"] = None
                kwargs["aux_loss"] = False
            if name in ("googlenet", "inception_v3"):
                kwargs["aux_logits"] = False
                kwargs["init_weights"] = False
            return make(**kwargs).eval()
    raise ValueError("torchvision has no network '%s'" % name)


def export(name, shape, path):
    import torch
    torch.manual_seed(0)
    model = build(name)
    training = torch.onnx.TrainingMode.EVAL
    if name.startswith("vit"):
        # In eval mode the encoder takes PyTorch's fused attention kernel,
        # which has no ONNX export; its dropouts are 0, so training mode
        # computes the same and exports the attention as plain ops.
        model.train()
        training = torch.onnx.TrainingMode.PRESERVE
    with torch.no_grad():
        torch.onnx.export(model, torch.randn(*shape), path, opset_version=13, training=training,
                          input_names=["input"], do_constant_folding=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir")
    parser.add_argument("--only", help="comma-separated network names")
    args = parser.parse_args()
    only = set(args.only.split(",")) if args.only else None
    os.makedirs(args.out_dir, exist_ok=True)
    written = 0
    for name, family, shape in NETWORKS:
        if only and name not in only:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            model = os.path.join(tmp, name + ".onnx")
            try:
                export(name, shape, model)
            except Exception as error:  # report and go on with the others
                print("torchvision-traces: %s does not export: %s" % (name, str(error).splitlines()[0]),
                      file=sys.stderr)
                continue
            out = os.path.join(args.out_dir, name + ".csv")
            result = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "onnx-trace.py"), model, out],
                                    capture_output=True, text=True)
            if result.returncode != 0:
                print(result.stderr.strip(), file=sys.stderr)
                continue
        written += 1
        print("%s (%s): %s" % (name, family, out))
    return 0 if written else 1


if __name__ == "__main__":
    sys.exit(main())
