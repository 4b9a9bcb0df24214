# CUDA is optional: WARPCRYPT_CUDA=AUTO enables it when a working nvcc is found, ON requires
# it, OFF never looks. The result is WARPCRYPT_HAVE_CUDA, which decides whether engine/cuda
# builds the kernels and the driver (the cuda backend) or only absent.cpp's null tables.
set(WARPCRYPT_HAVE_CUDA OFF)
if(NOT WARPCRYPT_CUDA STREQUAL "OFF")
  include(CheckLanguage)
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    enable_language(CUDA)
    set(WARPCRYPT_HAVE_CUDA ON)
  elseif(WARPCRYPT_CUDA STREQUAL "ON")
    message(FATAL_ERROR "WARPCRYPT_CUDA=ON but no working CUDA compiler was found")
  endif()
endif()
message(STATUS "warpcrypt: CUDA toolchain ${WARPCRYPT_HAVE_CUDA}")
