// Loading a cluster dump: a JSON List (what `kubectl get nodes,pods -A -o
// json | jq -c` writes) of `nodes` nodes and `pods` pods, generated into a
// temporary file and loaded by LoadManifestPaths in a child process, so that
// its time and peak memory (ru_maxrss) are the loader's own. Prints the time,
// the peak, the heap the loaded model holds per pod and the file's size.
#ifndef GPUSCHED_BENCH_LOAD_BENCH_H_
#define GPUSCHED_BENCH_LOAD_BENCH_H_

#include <cstddef>
#include <string>

namespace gpusched::bench {

void LoadBench(size_t nodes, size_t pods, int runs);
// Writes the List LoadBench loads to `path` (to profile the loader on it).
void WriteClusterList(const std::string& path, size_t nodes, size_t pods);

}  // namespace gpusched::bench

#endif  // GPUSCHED_BENCH_LOAD_BENCH_H_
