#!/usr/bin/env python3
"""Writes a generated cluster as one YAML stream: NODES nodes (half 8-GPU, half 4-GPU) and PODS pods of
1/2/4/8 GPUs, GPU shares (alibabacloud.com/gpu-milli) and CPU-only pods, one JSON document each.

    python3 scripts/gen_cluster.py 1000 5000 > cluster-1000.yaml   # the README's thousand-node cluster
    python3 scripts/gen_cluster.py NODES PODS [SEED]               # SEED defaults to 1

Deterministic: the same arguments write the same bytes, on every platform. It writes exactly what the tests'
WriteGeneratedCluster (tests/cli/generated_cluster.h) writes, drawing through the same generator as gpusched's
Rng (std::mt19937_64, Uniform by rejection sampling), so the README's figures can be reproduced and tested
(DocCommandsTest).
"""
import sys

MASK = (1 << 64) - 1


class Mt19937_64:
    """std::mt19937_64, whose output sequence the C++ standard fixes."""

    def __init__(self, seed):
        self.mt = [0] * 312
        self.mt[0] = seed & MASK
        for i in range(1, 312):
            self.mt[i] = (6364136223846793005 * (self.mt[i - 1] ^ (self.mt[i - 1] >> 62)) + i) & MASK
        self.index = 312

    def next(self):
        if self.index >= 312:
            for i in range(312):
                x = (self.mt[i] & 0xFFFFFFFF80000000) | (self.mt[(i + 1) % 312] & 0x7FFFFFFF)
                xa = x >> 1
                if x & 1:
                    xa ^= 0xB5026F5AA96619E9
                self.mt[i] = self.mt[(i + 156) % 312] ^ xa
            self.index = 0
        x = self.mt[self.index]
        self.index += 1
        x ^= (x >> 29) & 0x5555555555555555
        x ^= (x << 17) & 0x71D67FFFEDA60000
        x ^= (x << 37) & 0xFFF7EEE000000000
        x ^= x >> 43
        return x & MASK

    def uniform(self, n):
        """gpusched's Rng::Uniform: uniform in [0, n), rejection sampling, no modulo bias."""
        limit = MASK - MASK % n
        while True:
            x = self.next()
            if x < limit:
                return x % n


def main(argv):
    if len(argv) not in (3, 4):
        sys.exit("usage: gen_cluster.py NODES PODS [SEED]")
    nodes, pods = int(argv[1]), int(argv[2])
    rng = Mt19937_64(int(argv[3]) if len(argv) == 4 else 1)
    out = []
    for i in range(nodes):
        big = i % 2 == 0
        out.append('---\n{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-%d"}, "status": '
                   '{"allocatable": {"cpu": "%d", "memory": "%dGi", "pods": "110", "nvidia.com/gpu": "%d"}}}\n'
                   % (i, 96 if big else 64, 768 if big else 512, 8 if big else 4))
    for i in range(pods):
        r = rng.uniform(100)
        gpus = 0
        annotations = ""
        if 10 <= r < 30:
            annotations = ', "annotations": {"alibabacloud.com/gpu-milli": "%d"}' % (100 * (1 + rng.uniform(9)))
        elif r >= 30:
            gpus = 1 if r < 75 else 2 if r < 87 else 4 if r < 95 else 8
        limits = '"cpu": "%d", "memory": "%dGi"' % (4 * gpus if gpus else 2, 32 * gpus if gpus else 8)
        if gpus:
            limits += ', "nvidia.com/gpu": "%d"' % gpus
        out.append('---\n{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "pod-%d"%s}, "spec": '
                   '{"containers": [{"name": "main", "image": "x", "resources": {"limits": {%s}}}]}}\n'
                   % (i, annotations, limits))
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main(sys.argv)
