// Finding what `gpusched explain NAME` asks about, as kubectl finds an object
// by name: NAME is "name" or "namespace/name", and -n NAMESPACE narrows it.
// Without a namespace, a name that several namespaces hold is refused with
// the list (kubectl would need -n), never resolved by guessing. Matching runs
// as a list of steps (the input's pods, then its rejected objects); another
// kind of match, such as a controller's name standing for its pods, is one
// more step in FindExplainTarget. A name not found lists the input's pod
// names near it ("did you mean ...?", util/did_you_mean.h), in its
// namespace when it names one.
#ifndef GPUSCHED_CLI_POD_LOOKUP_H_
#define GPUSCHED_CLI_POD_LOOKUP_H_

#include <cstddef>
#include <string>
#include <vector>

#include "gpusched/model/pod.h"
#include "gpusched/util/input_error.h"

namespace gpusched {

struct PodQuery {
  std::string name;       // as typed: "name" or "namespace/name"
  std::string namespace_;  // -n; "" = any namespace
};

struct ExplainTarget {
  enum class Kind {
    kPod,        // pods: the one input pod it names
    kRejected,   // rejected: the input object was refused
    kAmbiguous,  // candidates: the same name in several namespaces
    kNotFound,   // error
    kInvalid,    // error: the query contradicts itself
  };
  Kind kind = Kind::kNotFound;
  std::vector<size_t> pods;             // indices into the input pods
  const InputError* rejected = nullptr;
  std::vector<std::string> candidates;  // "namespace/name", in input order
  std::string error;                    // the whole message for kNotFound / kInvalid / kAmbiguous
};

ExplainTarget FindExplainTarget(const PodQuery& query, const std::vector<const Pod*>& pods,
                                const std::vector<InputError>& rejected);

}  // namespace gpusched

#endif  // GPUSCHED_CLI_POD_LOOKUP_H_
