#include "logs/export_rows.h"

#include <gtest/gtest.h>

namespace spinup {
namespace {

TEST(ExportedLine, CloudWatchTextRows) {
  std::string scratch;
  EXPECT_EQ(ExportedLine("EVENTS\ttgi/tgi/4f1c\t1729157402118\t{\"fields\":{\"message\":\"x\"}}"
                         "\t1729157402301",
                         &scratch),
            "{\"fields\":{\"message\":\"x\"}}");
  // A message with a tab of its own runs to the last tab.
  EXPECT_EQ(ExportedLine("EVENTS\ts\t1\tINFO a\tb\t2", &scratch), "INFO a\tb");
  EXPECT_FALSE(ExportedLine("EVENTS\ts\tnot-a-time\tINFO a\t2", &scratch).has_value());
  EXPECT_FALSE(ExportedLine("EVENTS\ts\t1\tINFO a", &scratch).has_value());
  EXPECT_FALSE(ExportedLine("EVENTS happened\there", &scratch).has_value());
}

TEST(ExportedLine, FluentBitStdoutRecords) {
  std::string scratch;
  EXPECT_EQ(ExportedLine("[3] kube.var.log.containers.sgl.log: [1748510049.4, {\"stream\"=>"
                         "\"stderr\", \"log\"=>\"[2025-05-29 09:14:09 TP3] Init \\\"x\\\" "
                         "begin.\"}]",
                         &scratch),
            "[2025-05-29 09:14:09 TP3] Init \"x\" begin.");
  EXPECT_EQ(ExportedLine("[0] app: [1.0, {\"message\"=>\"m\"}]", &scratch), "m");
  // SGLang's own bracketed lines, and records without a line, are not such rows.
  EXPECT_FALSE(ExportedLine("[2025-05-29 09:14:09 TP3] Init torch distributed begin.", &scratch)
                   .has_value());
  EXPECT_FALSE(ExportedLine("[0] app: [1.0, {\"other\"=>\"m\"}]", &scratch).has_value());
  EXPECT_FALSE(ExportedLine("[0] app: [1.0, {\"log\"=>\"unterminated}]", &scratch).has_value());
}

}  // namespace
}  // namespace spinup
