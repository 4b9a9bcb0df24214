// The backends the parameterised tests run (docs/design.md, "tests/ and scripts/": "every backend
// runs every vector"): the registry's usable backends, plus backends that exist for the tests only
// and run everywhere:
//   cuda-emulated  the CUDA kernels' phases run thread by thread on the CPU
//                  (engine/cuda/emulator.cpp), so the GPU algorithm meets every vector file,
//                  ACVP set and differential test on machines without a GPU.
// Test-only backends are never in the registry: users cannot pick them, `auto` never does.
#pragma once

#include <string_view>
#include <vector>

#include "engine/registry.hpp"

namespace warp::test {

// usable_backends(), then the test-only backends.
std::vector<const Backend*> backends_under_test();

// A test-only backend by name ("cuda-emulated"), else warp::find_backend(name) with its errors:
// how warpcrypt-acvp resolves --backend, so the tests can run the harness on the emulator.
const Backend& find_backend_under_test(std::string_view name);

}  // namespace warp::test
