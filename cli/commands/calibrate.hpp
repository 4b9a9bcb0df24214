// `warpcrypt bench --calibrate`: measures every usable backend's seal time at two sizes, fits
// the cost model's per-call latency and throughput (engine/cost_model.hpp), stores it
// (cli/cost_model_store.hpp), installs it, and reports what `auto` now picks.
#pragma once

namespace warp::cli {

// Prints a table (or, with `json`, one JSON object) of what was measured, the file written and
// auto's new choices. Throws Error(io) when the file cannot be written.
void run_calibration(bool json);

}  // namespace warp::cli
