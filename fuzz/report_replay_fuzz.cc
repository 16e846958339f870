// Fuzzes what spinup reads back from untrusted event streams and metrics text: `spinup report`'s
// replay into the HTML report and metrics sinks, the exposition parser and the --metrics address
// parser. Beyond not crashing, the metrics a hostile stream produces must still be valid
// exposition text, and no `<script` may come from the stream into the report.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>

#include "sink/event_replay.h"
#include "sink/html_report.h"
#include "sink/metrics_exposition.h"
#include "sink/metrics_server.h"
#include "sink/metrics_sink.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace spinup;
  std::string text(reinterpret_cast<const char*>(data), size);
  (void)ParseExposition(text);
  (void)ParseListenAddress(text);

  int64_t now = 0;
  HtmlReportSink report({}, [&] { return now; });
  MetricsSink metrics({"job", "host", "v"}, [&] { return now; });
  std::istringstream in(text);
  std::ostringstream warnings;
  auto stats = ReplayEventStream(
      in, "fuzz", {&report, &metrics}, [&](int64_t t) { now = t; }, warnings, 1 << 20);
  std::string html = report.Render();
  size_t scripts = 0;
  for (size_t p = html.find("<script"); p != std::string::npos; p = html.find("<script", p + 1)) {
    ++scripts;
  }
  if (scripts != 1) std::abort();  // only the report's own
  if (!ParseExposition(metrics.Render()).ok()) std::abort();
  (void)stats;
  return 0;
}
