// Whether this program was built with AddressSanitizer, for tests whose premise it changes
// (it turns mlock into a no-op, and reserves terabytes of address space).
#pragma once

namespace warp::test {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif
#else
inline constexpr bool kAddressSanitizer = false;
#endif

}  // namespace warp::test
