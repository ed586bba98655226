// One YAML document parsed into a Document for the io tests that read a
// document tree (document, decode_context, kube_decode); a parse error fails
// the calling test.
#ifndef GPUSCHED_TESTS_IO_DOCUMENT_TEST_UTIL_H_
#define GPUSCHED_TESTS_IO_DOCUMENT_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <string>

#include "gpusched/io/document.h"
#include "gpusched/io/yaml_documents.h"

namespace gpusched::document_test {

inline Document Parse(const std::string& text, int first_line = 1) {
  Document doc;
  int error_line = 0;
  std::string error;
  EXPECT_TRUE(ParseYamlDocument(YamlDocument{text, first_line}, doc, error_line, error)) << error;
  return doc;
}

}  // namespace gpusched::document_test

#endif  // GPUSCHED_TESTS_IO_DOCUMENT_TEST_UTIL_H_
