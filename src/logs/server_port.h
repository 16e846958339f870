// The port a server line names: in its launch arguments (vLLM's `port=8000`, `'port': 8000`,
// `--port 8000`, TGI's `port: 80`) or in the address it says it listens on
// (`Uvicorn running on http://0.0.0.0:4000`). A ready line naming another port than the server's
// own is another program's (a gateway's, a web UI's in the same paste). Pure; no I/O.
#pragma once

#include <optional>
#include <string_view>

namespace spinup {

// The port in a launch argument, or nullopt (none, or not a port number).
std::optional<int> LaunchArgPort(std::string_view line);

// The port of the first URL in the line ("scheme://host:port"), or nullopt.
std::optional<int> UrlPort(std::string_view line);

// The port of a bind error's address tuple ("[Errno 98] error while attempting to bind on address
// ('0.0.0.0', 8265): address already in use"), or nullopt.
std::optional<int> BindTuplePort(std::string_view line);

}  // namespace spinup
