// Every piece of text that reaches the HTML report (policy names, node and
// pod names come from user input) is escaped, so a name such as "<b>&" shows
// as written and cannot break the markup.
#ifndef GPUSCHED_REPORT_HTML_ESCAPE_H_
#define GPUSCHED_REPORT_HTML_ESCAPE_H_

#include <string>
#include <string_view>

namespace gpusched {

// & < > " ' become entities (safe in text and in quoted attributes); control
// characters other than tab, newline and carriage return, which HTML does not
// allow, become U+FFFD.
std::string HtmlEscape(std::string_view s);

}  // namespace gpusched

#endif  // GPUSCHED_REPORT_HTML_ESCAPE_H_
