// CSV as banca writes it (RFC 4180): fields separated by commas, lines
// ended by CRLF, and a field quoted (its quotes doubled) when it holds a
// comma, a quote, a CR or an LF, or starts or ends with a space. Bytes are
// written as they are (the caller's strings are UTF-8).
#ifndef BANCA_LIBS_COMMON_CSV_TEXT_H_
#define BANCA_LIBS_COMMON_CSV_TEXT_H_

#include <string>
#include <string_view>
#include <vector>

namespace banca {

// One field, quoted when RFC 4180 needs it.
std::string CsvField(std::string_view field);
// Appends one record (fields and the CRLF) to `out`.
void AppendCsvLine(const std::vector<std::string>& fields, std::string* out);

}  // namespace banca

#endif  // BANCA_LIBS_COMMON_CSV_TEXT_H_
