// Document: gpusched's own tree for one parsed YAML document or JSON value.
// The parsers build it (ParseYamlDocument in yaml_documents.h) and every
// decoder reads it (io/decode_context.h), so that the rules of how
// Kubernetes reads a manifest live in one place whatever the input format.
//
// A Document holds its nodes in one flat array, their children as index
// lists and all scalar text in one buffer: a pod's tree is a few allocations,
// not one per field, and dropping it is as cheap. A DocNode is a handle
// (document + index) that never throws: a missing key, an out-of-range index
// or a read of the wrong shape gives an undefined node. Aliases share the
// node they name (a YAML alias bomb is never expanded).
//
// Scalars keep their text with the JSON type they stand for and whether
// they were plain (unquoted) in YAML, so that YAML 1.1 resolution can be
// applied. Lines and columns are 1-based positions in the file.
#ifndef GPUSCHED_IO_DOCUMENT_H_
#define GPUSCHED_IO_DOCUMENT_H_

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpusched {

enum class DocType : uint8_t { kNull, kScalar, kMap, kSequence };

// What a scalar is in JSON terms (after YAML resolution): the type names of
// Go's json errors ("cannot unmarshal number into ...").
enum class ScalarKind : uint8_t { kString, kNumber, kBool };

class Document;

class DocNode {
 public:
  DocNode() = default;

  bool IsDefined() const { return doc_ != nullptr; }
  bool IsNull() const { return IsDefined() && Type() == DocType::kNull; }
  bool IsScalar() const { return IsDefined() && Type() == DocType::kScalar; }
  bool IsMap() const { return IsDefined() && Type() == DocType::kMap; }
  bool IsSequence() const { return IsDefined() && Type() == DocType::kSequence; }
  DocType Type() const;

  // The scalar's text ("" for anything else).
  std::string_view Scalar() const;
  ScalarKind Kind() const;
  // A YAML scalar written without quotes (JSON scalars are never plain).
  bool IsPlain() const;

  int Line() const;    // 0 when undefined
  int Column() const;  // 0 when undefined

  // Items of a sequence, entries of a map, 0 otherwise.
  size_t size() const;
  // The i-th item of a sequence.
  DocNode operator[](size_t i) const;
  DocNode operator[](int i) const { return i < 0 ? DocNode() : (*this)[static_cast<size_t>(i)]; }
  // The value of `key` in a map (the first entry with that key).
  DocNode operator[](std::string_view key) const;
  DocNode operator[](const char* key) const { return (*this)[std::string_view(key)]; }
  // The i-th entry of a map, in document order.
  DocNode KeyAt(size_t i) const;
  DocNode ValueAt(size_t i) const;

  // Iteration: `for (DocNode item : seq)` over a sequence's items;
  // `for (auto [key, value] : map.Entries())` over a map's entries. Either is
  // empty for any other node.
  class Iterator;
  Iterator begin() const;
  Iterator end() const;
  class EntryRange;
  EntryRange Entries() const;

  // Same node of the same document.
  bool Is(const DocNode& o) const { return doc_ == o.doc_ && index_ == o.index_; }
  const Document* document() const { return doc_; }
  uint32_t index() const { return index_; }

 private:
  friend class Document;
  DocNode(const Document* doc, uint32_t index) : doc_(doc), index_(index) {}
  uint32_t Link(size_t i) const;

  const Document* doc_ = nullptr;
  uint32_t index_ = 0;
};

class Document {
 public:
  struct Entry {
    uint32_t offset = 0;  // scalar: start in chars_; container: first child in links_
    uint32_t size = 0;    // scalar: bytes; sequence: items; map: entries (key and value links each)
    uint32_t line = 0;
    uint32_t column = 0;
    DocType type = DocType::kNull;
    ScalarKind kind = ScalarKind::kString;
    bool plain = false;
  };

  Document() = default;
  Document(const Document&) = delete;
  Document& operator=(const Document&) = delete;
  Document(Document&&) = default;
  Document& operator=(Document&&) = default;

  DocNode root() const { return has_root_ ? DocNode(this, root_) : DocNode(); }
  DocNode node(uint32_t index) const { return index < nodes_.size() ? DocNode(this, index) : DocNode(); }

  // A key given twice in one map. The map keeps the later value (kubectl's
  // client-side decoding does the same); strict decoding refuses the object.
  struct Duplicate {
    uint32_t map = 0;  // the map's node index
    std::string key;
    int first_line = 0;
    int line = 0;  // of the later key
  };
  const std::vector<Duplicate>& duplicates() const { return duplicates_; }
  void AddDuplicate(Duplicate d) { duplicates_.push_back(std::move(d)); }
  bool empty() const { return !has_root_; }
  // Forgets every node, keeping the buffers' capacity for the next tree.
  void Clear();

  size_t node_count() const { return nodes_.size(); }
  // Heap bytes held (capacity), to measure what a tree costs.
  size_t MemoryBytes() const;

  // --- Building (used by the parsers). Scalars and containers are added
  // bottom-up: open a container, add its children (for a map: key, value,
  // key, value...), close it. The last closed top-level node is the root.
  uint32_t AddScalar(std::string_view text, ScalarKind kind, bool plain, int line, int column);
  uint32_t AddNull(int line, int column);
  // Opens a map or sequence and returns its index.
  uint32_t OpenContainer(DocType type, int line, int column);
  // Whether `index` is a container still open (an alias to it would make a cycle).
  bool IsOpen(uint32_t index) const;
  // Closes the innermost open container and returns its index. A map that
  // holds a key twice keeps the later entry and records a Duplicate.
  uint32_t CloseContainer();
  // Adds an existing node (an alias) as the next child.
  void AddAlias(uint32_t index);
  // The innermost open container's children added so far (for a map: key,
  // value, ...), as node indices.
  std::pair<const uint32_t*, size_t> OpenChildren() const;
  // Replaces the innermost open container's pending children.
  void SetOpenChildren(std::vector<uint32_t> children);
  size_t open_depth() const { return open_.size(); }
  const Entry& entry(uint32_t i) const { return nodes_[i]; }
  std::string_view text(uint32_t i) const {
    return std::string_view(chars_).substr(nodes_[i].offset, nodes_[i].size);
  }

 private:
  friend class DocNode;
  void Attach(uint32_t index);
  void DropDuplicateKeys(uint32_t map, size_t start);

  std::vector<Entry> nodes_;
  std::vector<uint32_t> links_;
  std::string chars_;
  // Children of the open containers, innermost last; open_ holds each open
  // container's node and where its children start in pending_.
  std::vector<uint32_t> pending_;
  std::vector<std::pair<uint32_t, size_t>> open_;
  std::vector<Duplicate> duplicates_;
  uint32_t root_ = 0;
  bool has_root_ = false;
};

class DocNode::Iterator {
 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = DocNode;
  using difference_type = std::ptrdiff_t;
  using pointer = const DocNode*;
  using reference = DocNode;

  Iterator() = default;
  DocNode operator*() const { return node_[i_]; }
  Iterator& operator++() {
    ++i_;
    return *this;
  }
  Iterator operator++(int) {
    Iterator t = *this;
    ++i_;
    return t;
  }
  bool operator==(const Iterator& o) const { return i_ == o.i_; }

 private:
  friend class DocNode;
  Iterator(DocNode node, size_t i) : node_(node), i_(i) {}
  DocNode node_;
  size_t i_ = 0;
};

class DocNode::EntryRange {
 public:
  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = std::pair<DocNode, DocNode>;
    using difference_type = std::ptrdiff_t;
    using pointer = const value_type*;
    using reference = value_type;

    Iterator() = default;
    std::pair<DocNode, DocNode> operator*() const { return {map_.KeyAt(i_), map_.ValueAt(i_)}; }
    Iterator& operator++() {
      ++i_;
      return *this;
    }
    Iterator operator++(int) {
      Iterator t = *this;
      ++i_;
      return t;
    }
    bool operator==(const Iterator& o) const { return i_ == o.i_; }

   private:
    friend class EntryRange;
    Iterator(DocNode map, size_t i) : map_(map), i_(i) {}
    DocNode map_;
    size_t i_ = 0;
  };
  Iterator begin() const { return Iterator(map_, 0); }
  Iterator end() const { return Iterator(map_, map_.IsMap() ? map_.size() : 0); }

 private:
  friend class DocNode;
  explicit EntryRange(DocNode map) : map_(map) {}
  DocNode map_;
};

inline DocNode::Iterator DocNode::begin() const { return Iterator(*this, 0); }
inline DocNode::Iterator DocNode::end() const { return Iterator(*this, IsSequence() ? size() : 0); }
inline DocNode::EntryRange DocNode::Entries() const { return EntryRange(*this); }

// "an object", "a list", "a scalar", "null" or "nothing", for messages.
const char* DocKind(const DocNode& n);

}  // namespace gpusched

#endif  // GPUSCHED_IO_DOCUMENT_H_
