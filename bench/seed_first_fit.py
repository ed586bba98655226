#!/usr/bin/env python3
"""The seed's first-fit, as the founding document writes it
(/work/shared/seed/scheduling-gpus-on-kubernetes.txt, "Simulating the core
scheduling decision"), reading its nodes and pods from Kubernetes JSON
(a List, or `kubectl get -o json` output) instead of literals.

gpusched_bench runs it on the same cluster file as `gpusched schedule` and
compares the two "scheduling result:" sections line by line.

    python3 bench/seed_first_fit.py CLUSTER.json [CLUSTER.json ...]

Only the reading of the JSON is added; the Node/Pod classes, schedule() and
the printing are the seed's, unchanged.
"""
import json
import sys
from dataclasses import dataclass


@dataclass
class Node:
    name: str
    gpus_total: int
    gpus_used: int = 0

    @property
    def gpus_free(self):
        return self.gpus_total - self.gpus_used


@dataclass
class Pod:
    name: str
    gpus_requested: int


def schedule(nodes, pods):
    """First-fit: place each job on the first machine with enough free GPUs.
    This mirrors the core idea of the Kubernetes scheduler filtering nodes
    by a resource request, simplified to one resource type."""
    placements, pending = {}, []
    for pod in pods:
        placed = False
        for node in nodes:
            if node.gpus_free >= pod.gpus_requested:
                node.gpus_used += pod.gpus_requested
                placements[pod.name] = node.name
                placed = True
                break
        if not placed:
            pending.append(pod.name)
    return placements, pending


# --- reading Kubernetes JSON (not in the seed) ---

def gpus(resources):
    return int((resources or {}).get("nvidia.com/gpu", 0))


def read(paths):
    nodes, pods = [], []
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        items = doc["items"] if doc.get("kind", "").endswith("List") else [doc]
        for item in items:
            if item["kind"] == "Node":
                alloc = item.get("status", {}).get("allocatable", {})
                nodes.append(Node(item["metadata"]["name"], gpus(alloc)))
            elif item["kind"] == "Pod":
                requested = 0
                for c in item["spec"]["containers"]:
                    res = c.get("resources", {})
                    requested += gpus(res.get("requests")) or gpus(res.get("limits"))
                pods.append(Pod(item["metadata"]["name"], requested))
    return nodes, pods


nodes, pods = read(sys.argv[1:])

placements, pending = schedule(nodes, pods)

print("scheduling result:")
for pod_name, node_name in placements.items():
    print(f"  {pod_name:16} -> {node_name}")
if pending:
    print("pending (no node had enough free GPUs):")
    for p in pending:
        print(f"  {p}")

print("\nnode state after scheduling:")
for node in nodes:
    print(f"  {node.name}: {node.gpus_used}/{node.gpus_total} GPUs used")
