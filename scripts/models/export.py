#!/usr/bin/python3
"""The model corpus: networks exported from PyTorch to ONNX with seeded
random weights, each with a seeded input and PyTorch's outputs next to it.

For each network two variants:
  <name>.onnx      plain eval export (the exporter folds BatchNorm into Conv);
  <name>-bn.onnx   training=PRESERVE: BatchNormalization nodes kept, for the
                   compiler's own Conv+BN folding;
and <name>.npz with input_K and output_K (PyTorch eager, fp32, eval mode).

Networks:
  resnet50, mobilenet_v2, googlenet   torchvision, weights=None, 1x3x224x224;
  bert_base                           12-layer encoder, hidden 768, 12 heads,
                                      FFN 3072, sequence 128 (opset 13: LayerNorm
                                      spelt with ReduceMean/Pow/Sqrt) and
                                      bert_base_op17 (LayerNormalization);
  yolo                                YOLOv5s-style detector: Conv-BN-SiLU, C3
                                      with Split, SPPF, nearest upsampling, two
                                      heads, 1x3x256x256;
  text_encoder                        BERT-base from INT64 token ids and attention
                                      mask: embeddings (Gather of the ids), the
                                      mask's additive bias, 12 layers, pooler;
                                      two outputs (opset 13);
  resnext50                           torchvision resnext50_32x4d: grouped 3x3
                                      convolutions (32 groups), 1x3x224x224;
  mobilenet_v3                        torchvision mobilenet_v3_large: depthwise
                                      convolutions, squeeze-and-excitation,
                                      hard-swish and hard-sigmoid;
  vit_b_16                            torchvision vision transformer B/16: patch
                                      convolution, class token, 12 layers;
  deeplabv3                           torchvision deeplabv3_mobilenet_v3_large:
                                      dilated convolutions, ASPP with a global
                                      pool, bilinear upsampling, 1x3x256x256;
  small ones for the test suite (committed under test/Models/onnx, < 5 MB):
  inception_block, yolo_tiny, bert_tiny (2 layers, hidden 64, opset 17),
  text_encoder_tiny (2 layers, hidden 64, vocabulary 1000, batch 2).

Large files go to the output directory (default build/models), never into
the repository.

usage: export.py [--out DIR] [--only NAME,...] [--small]
"""
import argparse
import os
import sys
import warnings
import zlib

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

warnings.filterwarnings("ignore")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def randomise_bn(model, seed):
    """Random BN statistics and affine parameters (the exporter merges equal
    initializers into Identity nodes; random values also make folding
    non-trivial)."""
    g = torch.Generator().manual_seed(seed)
    for m in model.modules():
        if isinstance(m, (nn.BatchNorm2d, nn.LayerNorm)):
            with torch.no_grad():
                m.weight.copy_(torch.rand(m.weight.shape, generator=g) * 0.5 + 0.75)
                m.bias.copy_(torch.rand(m.bias.shape, generator=g) * 0.2 - 0.1)
                if isinstance(m, nn.BatchNorm2d):
                    m.running_mean.copy_(torch.rand(m.running_mean.shape, generator=g) * 0.2 - 0.1)
                    m.running_var.copy_(torch.rand(m.running_var.shape, generator=g) * 0.5 + 0.75)
    return model


# --- YOLO-style detector ----------------------------------------------------

class ConvBnSilu(nn.Module):
    def __init__(self, cin, cout, k=1, s=1):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k, s, k // 2, bias=False)
        self.bn = nn.BatchNorm2d(cout)

    def forward(self, x):
        y = self.bn(self.conv(x))
        return y * torch.sigmoid(y)


class Bottleneck(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.a = ConvBnSilu(c, c, 1)
        self.b = ConvBnSilu(c, c, 3)

    def forward(self, x):
        return x + self.b(self.a(x))


class C3(nn.Module):
    """One conv, split in two halves; one half through bottlenecks; concat."""

    def __init__(self, cin, cout, n):
        super().__init__()
        self.c = cout // 2
        self.cv1 = ConvBnSilu(cin, 2 * self.c, 1)
        self.m = nn.Sequential(*[Bottleneck(self.c) for _ in range(n)])
        self.cv2 = ConvBnSilu(2 * self.c, cout, 1)

    def forward(self, x):
        a, b = torch.split(self.cv1(x), self.c, dim=1)
        return self.cv2(torch.cat([self.m(a), b], 1))


class SPPF(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.cv1 = ConvBnSilu(c, c // 2, 1)
        self.cv2 = ConvBnSilu(c * 2, c, 1)

    def forward(self, x):
        x = self.cv1(x)
        p1 = F.max_pool2d(x, 5, 1, 2)
        p2 = F.max_pool2d(p1, 5, 1, 2)
        p3 = F.max_pool2d(p2, 5, 1, 2)
        return self.cv2(torch.cat([x, p1, p2, p3], 1))


class Yolo(nn.Module):
    def __init__(self, w=32, depth=(1, 2, 3, 1), classes=80):
        super().__init__()
        c = [w, 2 * w, 4 * w, 8 * w, 16 * w]
        self.stem = ConvBnSilu(3, c[0], 3, 2)
        self.d1 = nn.Sequential(ConvBnSilu(c[0], c[1], 3, 2), C3(c[1], c[1], depth[0]))
        self.d2 = nn.Sequential(ConvBnSilu(c[1], c[2], 3, 2), C3(c[2], c[2], depth[1]))
        self.d3 = nn.Sequential(ConvBnSilu(c[2], c[3], 3, 2), C3(c[3], c[3], depth[2]))
        self.d4 = nn.Sequential(ConvBnSilu(c[3], c[4], 3, 2), C3(c[4], c[4], depth[3]), SPPF(c[4]))
        self.lat = ConvBnSilu(c[4], c[3], 1)
        self.up = C3(2 * c[3], c[3], 1)
        self.head_small = nn.Conv2d(c[3], 3 * (5 + classes), 1)
        self.head_large = nn.Conv2d(c[4], 3 * (5 + classes), 1)

    def forward(self, x):
        x = self.stem(x)
        x = self.d2(self.d1(x))
        p4 = self.d3(x)
        p5 = self.d4(p4)
        u = F.interpolate(self.lat(p5), scale_factor=2.0, mode="nearest")
        f4 = self.up(torch.cat([u, p4], 1))
        a = self.head_small(f4).flatten(2)
        b = self.head_large(p5).flatten(2)
        return torch.cat([a, b], 2)


# --- BERT encoder -----------------------------------------------------------

class BertLayer(nn.Module):
    def __init__(self, h, heads, ffn):
        super().__init__()
        self.heads, self.dh = heads, h // heads
        self.q, self.k, self.v, self.o = (nn.Linear(h, h) for _ in range(4))
        self.ln1, self.ln2 = nn.LayerNorm(h, eps=1e-12), nn.LayerNorm(h, eps=1e-12)
        self.up, self.down = nn.Linear(h, ffn), nn.Linear(ffn, h)

    def split(self, t):
        b, s, _ = t.shape
        return t.reshape(b, s, self.heads, self.dh).transpose(1, 2)

    def forward(self, x, mask):
        b, s, h = x.shape
        q, k, v = self.split(self.q(x)), self.split(self.k(x)), self.split(self.v(x))
        scores = q @ k.transpose(-1, -2) / (self.dh ** 0.5) + mask
        ctx = (scores.softmax(-1) @ v).transpose(1, 2).reshape(b, s, h)
        x = self.ln1(x + self.o(ctx))
        return self.ln2(x + self.down(F.gelu(self.up(x))))


class Bert(nn.Module):
    """The encoder stack on embeddings (inputs_embeds) with an additive mask."""

    def __init__(self, layers=12, h=768, heads=12, ffn=3072, seq=128):
        super().__init__()
        self.layers = nn.ModuleList(BertLayer(h, heads, ffn) for _ in range(layers))
        mask = torch.zeros(1, 1, 1, seq)
        mask[..., seq - seq // 8:] = -10000.0  # padded tail
        self.register_buffer("mask", mask)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x, self.mask)
        return x


class TextEncoder(nn.Module):
    """A BERT encoder from token ids, as a text model is deployed: word,
    position and token-type embeddings (nn.Embedding, a Gather of the INT64
    ids), LayerNorm, the additive mask computed from the INT64 attention
    mask, the encoder layers, and the pooler (tanh of a Linear on the first
    token)."""

    def __init__(self, layers=12, h=768, heads=12, ffn=3072, seq=128, vocab=30522):
        super().__init__()
        self.word = nn.Embedding(vocab, h)
        self.position = nn.Embedding(512, h)
        self.token_type = nn.Embedding(2, h)
        self.ln = nn.LayerNorm(h, eps=1e-12)
        self.layers = nn.ModuleList(BertLayer(h, heads, ffn) for _ in range(layers))
        self.pool = nn.Linear(h, h)
        self.register_buffer("positions", torch.arange(seq).unsqueeze(0))

    def forward(self, ids, attention_mask):
        x = self.word(ids) + self.position(self.positions) + self.token_type(torch.zeros_like(ids))
        x = self.ln(x)
        mask = (1.0 - attention_mask[:, None, None, :].to(x.dtype)) * -10000.0
        for layer in self.layers:
            x = layer(x, mask)
        return x, torch.tanh(self.pool(x[:, 0]))


def token_inputs(seq, vocab, batch=1):
    """Seeded token ids (a padded tail of id 0) and their attention mask."""
    def make(generator):
        ids = torch.randint(1, vocab, (batch, seq), generator=generator)
        mask = torch.ones(batch, seq, dtype=torch.int64)
        ids[:, seq - seq // 8:] = 0
        mask[:, seq - seq // 8:] = 0
        return ids, mask
    return make


# --- Inception block ---------------------------------------------------------

class InceptionBlock(nn.Module):
    def __init__(self, cin=64):
        super().__init__()
        def cbr(ci, co, k):
            return nn.Sequential(nn.Conv2d(ci, co, k, padding=k // 2, bias=False), nn.BatchNorm2d(co),
                                 nn.ReLU())
        self.b1 = cbr(cin, 32, 1)
        self.b2 = nn.Sequential(cbr(cin, 24, 1), cbr(24, 32, 3))
        self.b3 = nn.Sequential(cbr(cin, 8, 1), cbr(8, 16, 5))
        self.b4 = cbr(cin, 16, 1)

    def forward(self, x):
        p = F.max_pool2d(x, 3, 1, 1, ceil_mode=True)
        return torch.cat([self.b1(x), self.b2(x), self.b3(x), self.b4(p)], 1)


# --- A small ResNet (bottleneck blocks with downsampling) --------------------

class ResNetTiny(nn.Module):
    """ResNet-50's structure at test size: stem, two stages of torchvision
    Bottleneck blocks (the second one strided, so its downsampling 1x1 conv
    reads every other row of the stage input), pooling, classifier."""

    def __init__(self, classes=10):
        super().__init__()
        from torchvision.models.resnet import Bottleneck
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, 1, 1, bias=False), nn.BatchNorm2d(16), nn.ReLU(),
                                  nn.MaxPool2d(3, 2, 1))

        def stage(cin, planes, stride):
            down = nn.Sequential(nn.Conv2d(cin, planes * 4, 1, stride, bias=False), nn.BatchNorm2d(planes * 4))
            return nn.Sequential(Bottleneck(cin, planes, stride, down), Bottleneck(planes * 4, planes))
        self.layer1 = stage(16, 8, 1)
        self.layer2 = stage(32, 16, 2)
        self.fc = nn.Linear(64, classes)

    def forward(self, x):
        x = self.layer2(self.layer1(self.stem(x)))
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))


def vit(model):
    """torchvision initialises a vision transformer's classifier to zeros (its
    output would be all zeros): a random classifier instead."""
    nn.init.normal_(model.heads.head.weight, std=0.02)
    nn.init.normal_(model.heads.head.bias, std=0.02)
    return model


class Segmentation(nn.Module):
    """A torchvision segmentation model's "out" map (the model returns a
    dict, which the exporter does not take)."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        return self.model(x)["out"]


def networks():
    import torchvision.models as tv
    return {
        "resnet50": (lambda: tv.resnet50(weights=None), (1, 3, 224, 224), 13, False),
        "mobilenet_v2": (lambda: tv.mobilenet_v2(weights=None), (1, 3, 224, 224), 13, False),
        "googlenet": (lambda: tv.googlenet(weights=None, aux_logits=False, init_weights=True),
                      (1, 3, 224, 224), 13, False),
        "bert_base": (lambda: Bert(), (1, 128, 768), 13, False),
        "bert_base_op17": (lambda: Bert(), (1, 128, 768), 17, False),
        "yolo": (lambda: Yolo(), (1, 3, 256, 256), 13, False),
        "inception_block": (lambda: InceptionBlock(), (1, 64, 28, 28), 13, True),
        "yolo_tiny": (lambda: Yolo(w=8, depth=(1, 1, 1, 1), classes=4), (1, 3, 64, 64), 13, True),
        "bert_tiny": (lambda: Bert(layers=2, h=64, heads=4, ffn=256, seq=16), (1, 16, 64), 17, True),
        "resnet_tiny": (lambda: ResNetTiny(), (1, 3, 32, 32), 13, True),
        "text_encoder": (lambda: TextEncoder(), token_inputs(128, 30522), 13, False),
        "text_encoder_tiny": (lambda: TextEncoder(layers=2, h=64, heads=4, ffn=256, seq=16, vocab=1000),
                              token_inputs(16, 1000, batch=2), 17, True),
        "resnext50": (lambda: tv.resnext50_32x4d(weights=None), (1, 3, 224, 224), 13, False),
        "mobilenet_v3": (lambda: tv.mobilenet_v3_large(weights=None), (1, 3, 224, 224), 13, False),
        "vit_b_16": (lambda: vit(tv.vit_b_16(weights=None)), (1, 3, 224, 224), 13, False),
        "deeplabv3": (lambda: Segmentation(tv.segmentation.deeplabv3_mobilenet_v3_large(
            weights=None, weights_backbone=None, aux_loss=False)), (1, 3, 256, 256), 13, False),
    }


def seed_of(name):
    return zlib.crc32(name.encode()) % 100000


def build(name, make, shape, seed):
    """The network `name` in eval mode with its seeded weights, and its
    seeded input: what export() writes, and what bench/gpu.py times."""
    torch.manual_seed(seed)
    model = randomise_bn(make(), seed).eval()
    generator = torch.Generator().manual_seed(seed + 1)
    # `shape` is the input's shape, or a function of a generator that makes
    # the inputs (token ids and masks).
    x = shape(generator) if callable(shape) else torch.randn(*shape, generator=generator)
    return model, x


def export(name, make, shape, opset, out_dir, seed):
    model, x = build(name, make, shape, seed)
    xs = x if isinstance(x, tuple) else (x,)
    with torch.no_grad():
        y = model(*xs)
    ys = y if isinstance(y, tuple) else (y,)
    os.makedirs(out_dir, exist_ok=True)
    np.savez(os.path.join(out_dir, name + ".npz"), **{f"input_{k}": t.numpy() for k, t in enumerate(xs)},
             **{f"output_{k}": t.numpy() for k, t in enumerate(ys)})
    has_bn = any(isinstance(m, nn.BatchNorm2d) for m in model.modules())
    variants = [("", torch.onnx.TrainingMode.EVAL)]
    if has_bn:
        variants.append(("-bn", torch.onnx.TrainingMode.PRESERVE))
    for suffix, mode in variants:
        path = os.path.join(out_dir, name + suffix + ".onnx")
        names = ["input"] if len(xs) == 1 else [f"input_{k}" for k in range(len(xs))]
        outputs = ["output"] if len(ys) == 1 else [f"output_{k}" for k in range(len(ys))]
        torch.onnx.export(model, xs, path, opset_version=opset, input_names=names,
                          output_names=outputs, training=mode, do_constant_folding=True)
        print(f"{path}: {os.path.getsize(path) / 1e6:.1f} MB")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(ROOT, "build", "models"))
    parser.add_argument("--only", default="")
    parser.add_argument("--small", action="store_true",
                        help="only the small models, into test/Models/onnx (committed)")
    args = parser.parse_args()
    nets = networks()
    names = [n for n in nets if (not args.only or n in args.only.split(","))
             and (not args.small or nets[n][3])]
    if args.only and len(names) != len(args.only.split(",")):
        sys.exit(f"export: unknown network in {args.only}; known: {', '.join(nets)}")
    out = os.path.join(ROOT, "test", "Models", "onnx") if args.small else args.out
    for name in names:
        make, shape, opset, _ = nets[name]
        export(name, make, shape, opset, out, seed_of(name))


if __name__ == "__main__":
    main()
