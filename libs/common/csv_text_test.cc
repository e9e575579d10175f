#include "libs/common/csv_text.h"

#include "gtest/gtest.h"

namespace banca {
namespace {

TEST(CsvText, PlainFieldsAreWrittenAsTheyAre) {
  EXPECT_EQ(CsvField("12.34"), "12.34");
  EXPECT_EQ(CsvField(""), "");
  EXPECT_EQ(CsvField("roulette_french"), "roulette_french");
}

TEST(CsvText, Rfc4180QuotesCommasQuotesAndLineBreaks) {
  EXPECT_EQ(CsvField("a,b"), "\"a,b\"");
  EXPECT_EQ(CsvField("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(CsvField("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(CsvField("cr\rhere"), "\"cr\rhere\"");
  EXPECT_EQ(CsvField("\""), "\"\"\"\"");
  EXPECT_EQ(CsvField(" padded "), "\" padded \"");
  // A formula-looking field is data, quoted only when RFC 4180 says so.
  EXPECT_EQ(CsvField("=1+1"), "=1+1");
}

TEST(CsvText, LinesEndWithCrlf) {
  std::string out;
  AppendCsvLine({"date", "game", "ggr"}, &out);
  AppendCsvLine({"2026-07-10", "a,\"b\"", "-7.50"}, &out);
  EXPECT_EQ(out, "date,game,ggr\r\n2026-07-10,\"a,\"\"b\"\"\",-7.50\r\n");
}

}  // namespace
}  // namespace banca
