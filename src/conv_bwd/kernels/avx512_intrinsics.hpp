// <immintrin.h> for the AVX-512 kernel files. GCC 12 warns that the undefined source operand inside some AVX-512
// intrinsics is uninitialised (GCC bug 105593, fixed in GCC 13); the operand is never read, so those warnings are
// off in the files that include this.
#pragma once

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>
