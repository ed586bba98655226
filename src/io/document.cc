#include "gpusched/io/document.h"

#include <algorithm>
#include <limits>

namespace gpusched {

DocType DocNode::Type() const { return doc_->nodes_[index_].type; }

std::string_view DocNode::Scalar() const {
  if (!IsScalar()) return {};
  return doc_->text(index_);
}

ScalarKind DocNode::Kind() const { return IsDefined() ? doc_->nodes_[index_].kind : ScalarKind::kString; }

bool DocNode::IsPlain() const { return IsScalar() && doc_->nodes_[index_].plain; }

int DocNode::Line() const { return IsDefined() ? static_cast<int>(doc_->nodes_[index_].line) : 0; }

int DocNode::Column() const { return IsDefined() ? static_cast<int>(doc_->nodes_[index_].column) : 0; }

size_t DocNode::size() const {
  if (!IsDefined()) return 0;
  const Document::Entry& e = doc_->nodes_[index_];
  return e.type == DocType::kMap || e.type == DocType::kSequence ? e.size : 0;
}

uint32_t DocNode::Link(size_t i) const { return doc_->links_[doc_->nodes_[index_].offset + i]; }

DocNode DocNode::operator[](size_t i) const {
  if (!IsSequence() || i >= size()) return DocNode();
  return DocNode(doc_, Link(i));
}

DocNode DocNode::operator[](std::string_view key) const {
  if (!IsMap()) return DocNode();
  const size_t n = size();
  for (size_t i = 0; i < n; ++i) {
    const uint32_t k = Link(2 * i);
    const Document::Entry& ke = doc_->nodes_[k];
    if (ke.type == DocType::kScalar && doc_->text(k) == key) return DocNode(doc_, Link(2 * i + 1));
  }
  return DocNode();
}

DocNode DocNode::KeyAt(size_t i) const {
  if (!IsMap() || i >= size()) return DocNode();
  return DocNode(doc_, Link(2 * i));
}

DocNode DocNode::ValueAt(size_t i) const {
  if (!IsMap() || i >= size()) return DocNode();
  return DocNode(doc_, Link(2 * i + 1));
}

const char* DocKind(const DocNode& n) {
  if (!n.IsDefined()) return "nothing";
  switch (n.Type()) {
    case DocType::kMap: return "an object";
    case DocType::kSequence: return "a list";
    case DocType::kScalar: return "a scalar";
    case DocType::kNull: return "null";
  }
  return "nothing";
}

void Document::Clear() {
  duplicates_.clear();
  nodes_.clear();
  links_.clear();
  chars_.clear();
  pending_.clear();
  open_.clear();
  has_root_ = false;
}

size_t Document::MemoryBytes() const {
  return nodes_.capacity() * sizeof(Entry) + links_.capacity() * sizeof(uint32_t) + chars_.capacity() +
         pending_.capacity() * sizeof(uint32_t) + open_.capacity() * sizeof(open_[0]);
}

namespace {

uint32_t Clamp32(int v) { return v < 0 ? 0 : static_cast<uint32_t>(v); }

}  // namespace

void Document::Attach(uint32_t index) {
  if (open_.empty()) {
    root_ = index;
    has_root_ = true;
  } else {
    pending_.push_back(index);
  }
}

uint32_t Document::AddScalar(std::string_view text, ScalarKind kind, bool plain, int line, int column) {
  Entry e;
  e.offset = static_cast<uint32_t>(chars_.size());
  e.size = static_cast<uint32_t>(text.size());
  e.line = Clamp32(line);
  e.column = Clamp32(column);
  e.type = DocType::kScalar;
  e.kind = kind;
  e.plain = plain;
  chars_.append(text);
  const auto index = static_cast<uint32_t>(nodes_.size());
  nodes_.push_back(e);
  Attach(index);
  return index;
}

uint32_t Document::AddNull(int line, int column) {
  Entry e;
  e.line = Clamp32(line);
  e.column = Clamp32(column);
  e.type = DocType::kNull;
  const auto index = static_cast<uint32_t>(nodes_.size());
  nodes_.push_back(e);
  Attach(index);
  return index;
}

uint32_t Document::OpenContainer(DocType type, int line, int column) {
  Entry e;
  e.line = Clamp32(line);
  e.column = Clamp32(column);
  e.type = type;
  const auto index = static_cast<uint32_t>(nodes_.size());
  nodes_.push_back(e);
  open_.emplace_back(index, pending_.size());
  return index;
}

bool Document::IsOpen(uint32_t index) const {
  for (const auto& o : open_)
    if (o.first == index) return true;
  return false;
}

namespace {

bool SameKey(const Document& d, uint32_t a, uint32_t b) {
  const Document::Entry& ea = d.entry(a);
  const Document::Entry& eb = d.entry(b);
  return ea.type == DocType::kScalar && eb.type == DocType::kScalar && ea.size == eb.size && d.text(a) == d.text(b);
}

}  // namespace

void Document::DropDuplicateKeys(uint32_t map, size_t start) {
  const size_t pairs = (pending_.size() - start) / 2;
  if (pairs < 2) return;
  auto key = [&](size_t i) { return pending_[start + 2 * i]; };
  // Which entries a later entry with the same key replaces.
  std::vector<bool> dropped;
  auto drop = [&](size_t earlier, size_t later) {
    if (dropped.empty()) dropped.assign(pairs, false);
    if (dropped[earlier]) return;
    dropped[earlier] = true;
    duplicates_.push_back(Duplicate{map, std::string(text(key(earlier))), static_cast<int>(nodes_[key(earlier)].line),
                                    static_cast<int>(nodes_[key(later)].line)});
  };
  if (pairs <= 16) {
    for (size_t j = 1; j < pairs; ++j)
      for (size_t i = 0; i < j; ++i)
        if (SameKey(*this, key(i), key(j))) drop(i, j);
  } else {
    std::vector<std::pair<std::string_view, size_t>> sorted;
    sorted.reserve(pairs);
    for (size_t i = 0; i < pairs; ++i)
      if (nodes_[key(i)].type == DocType::kScalar) sorted.emplace_back(text(key(i)), i);
    std::sort(sorted.begin(), sorted.end());
    for (size_t i = 1; i < sorted.size(); ++i)
      if (sorted[i].first == sorted[i - 1].first) drop(sorted[i - 1].second, sorted[i].second);
  }
  if (dropped.empty()) return;
  // Lines in the order found.
  std::sort(duplicates_.end() - static_cast<std::ptrdiff_t>(std::count(dropped.begin(), dropped.end(), true)),
            duplicates_.end(), [](const Duplicate& a, const Duplicate& b) { return a.line < b.line; });
  size_t out = start;
  for (size_t i = 0; i < pairs; ++i) {
    if (dropped[i]) continue;
    pending_[out++] = pending_[start + 2 * i];
    pending_[out++] = pending_[start + 2 * i + 1];
  }
  pending_.resize(out);
}

uint32_t Document::CloseContainer() {
  const auto [index, start] = open_.back();
  open_.pop_back();
  if (nodes_[index].type == DocType::kMap && (pending_.size() - start) % 2 == 0) DropDuplicateKeys(index, start);
  Entry& e = nodes_[index];
  e.offset = static_cast<uint32_t>(links_.size());
  const size_t count = pending_.size() - start;
  // A map left with a key and no value (only possible through a broken
  // parse) gets a null value so that entries always come in pairs.
  links_.insert(links_.end(), pending_.begin() + static_cast<std::ptrdiff_t>(start), pending_.end());
  pending_.resize(start);
  if (e.type == DocType::kMap) {
    if (count % 2) {
      Entry null_entry;
      null_entry.line = e.line;
      null_entry.column = e.column;
      links_.push_back(static_cast<uint32_t>(nodes_.size()));
      nodes_.push_back(null_entry);
    }
    nodes_[index].size = static_cast<uint32_t>((count + 1) / 2);
  } else {
    nodes_[index].size = static_cast<uint32_t>(count);
  }
  Attach(index);
  return index;
}

void Document::AddAlias(uint32_t index) { Attach(index); }

std::pair<const uint32_t*, size_t> Document::OpenChildren() const {
  if (open_.empty()) return {nullptr, 0};
  const size_t start = open_.back().second;
  return {pending_.data() + start, pending_.size() - start};
}

void Document::SetOpenChildren(std::vector<uint32_t> children) {
  if (open_.empty()) return;
  pending_.resize(open_.back().second);
  pending_.insert(pending_.end(), children.begin(), children.end());
}

}  // namespace gpusched
