#!/usr/bin/python3
"""Compiles an ONNX model with fuse, runs it on random inputs, prints the outputs' shapes."""
import sys
import numpy as np
import fuse

model = fuse.compile(sys.argv[1], target="cpu")          # or fuse.load("model.so")
feeds = {i.name: np.random.default_rng(0).standard_normal(i.shape).astype(i.numpy_dtype) for i in model.inputs}
for name, value in model.run(feeds).items():
    print(name, value.dtype, value.shape, float(np.abs(value).sum()))
