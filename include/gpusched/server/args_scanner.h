// ScanExtenderArgs: the body of /filter and /prioritize (ExtenderArgs) as
// kube-scheduler sends it to a nodeCacheCapable extender, decoded without a
// document tree of the whole body. A request for 5,000 nodes is ~85 kB, all
// but the pod a NodeNames array: the scanner walks the top-level object once,
// takes each name as a view into the body, and only finds where the Pod
// object is (the caller parses that text alone, io/json_documents.h).
//
// It decodes a strict subset of what WithJsonBody + DecodeExtenderArgs
// (server/wire.h, the generic decoder) accept, with the same result:
//  - one JSON object and nothing after it but white space;
//  - its keys ASCII without escapes, matched ignoring case as Go does;
//    "Pod" once, an object; "NodeNames" once, an array of strings and
//    nulls (a null read as "", as the generic decoder does), each name of
//    bytes 0x20..0x7F without escapes; "Nodes" at most once, null;
//  - any other key's value plain JSON: ASCII, no escapes, nested less than
//    kMaxScannedNesting deep; no key "items" (the generic reader streams a
//    top-level "items" array item by item).
// Anything else (a syntax error, a value of the wrong type, Nodes given, a
// second Pod, escapes, non-ASCII outside the Pod) returns false: the caller
// then decodes the body with the generic decoder, which gives the answer or
// the 400 message. So the generic decoder stays the one that words errors and
// the scanner may be conservative. The Pod's own text is checked by the
// caller's parse (any byte the generic parser takes is taken there).
// tests/server/args_scanner_test.cc compares both on random and hostile
// bodies; fuzz/fuzz_extender.cc does too.
//
// A NameList is a NodeNames array already decoded and resolved, kept by its
// text (server/recent_texts.h): with a NameListCache the scanner takes the
// names of an array it has seen from the entry, without scanning them.
#ifndef GPUSCHED_SERVER_ARGS_SCANNER_H_
#define GPUSCHED_SERVER_ARGS_SCANNER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpusched/server/node_name_index.h"
#include "gpusched/server/recent_texts.h"

namespace gpusched {

inline constexpr int kMaxScannedNesting = 64;

struct NameList {
  std::string text;  // the array's JSON text, "[...]", as the scanner accepts it
  // Each name's offset and length in `text` (a null: length 0).
  std::vector<std::pair<uint32_t, uint32_t>> names;
  // Every name is written by Go's json.Marshal as it is, in quotes (no <, >
  // or &, which it escapes): the writers copy them.
  bool plain = true;
  // The names' node slots (-1: not in the view) through `index`.
  std::shared_ptr<const NodeNameIndex> index;
  std::vector<int64_t> slots;
};
using NameListCache = RecentTexts<NameList>;

struct ScannedArgs {
  std::string_view pod;                 // the Pod object's text
  std::string_view names_text;          // the NodeNames array's text
  std::vector<std::string_view> names;  // views into names_text
  bool plain = true;                    // as NameList::plain
  std::shared_ptr<const NameList> known;  // the cache's entry for names_text, if it had one
};

// Decodes `body` into `out` (views into `body`), or returns false when the
// generic decoder is to read it. `cache` may be null.
bool ScanExtenderArgs(std::string_view body, const NameListCache* cache, ScannedArgs& out);

}  // namespace gpusched

#endif  // GPUSCHED_SERVER_ARGS_SCANNER_H_
