// The AES round transformations (FIPS 197, 5.1 and 5.3) on bitsliced planes (layout in
// slice.hpp: in each 64-bit lane, bit 16*row + 4*col + block), "fixsliced".
//
// Fixslicing (Adomnicai and Peyrin, 2020): ShiftRows is never applied. Instead the state is
// kept skewed: after `skew` omitted ShiftRows, the true state T and the stored state S satisfy
//     T[row][col] = S[row][col + skew * row]   (columns mod 4)
// SubBytes and adding a constant do not care. MixColumns combines the four rows of a true
// column, which in S sit in columns that drift by `skew` per row, so the skewed MixColumns
// rotates each row by skew columns while it brings the next row in: a rotation of all 16-bit
// rows by the same amount, cheaper than ShiftRows's different amount per row. Round keys are
// stored skewed to match (aes_bitsliced.cpp), and the skew returns to zero every four rounds;
// the last round fixes up what is left.
//
// The `#pragma GCC unroll` lines here and in the other headers of this folder keep the eight
// planes in registers at -O2 as well: there GCC does not fully unroll loops that grow the
// code, and a rolled loop over an array of planes lives in memory.
#pragma once

#include "engine/scalar/aes/sbox_circuit.hpp"
#include "engine/scalar/aes/slice.hpp"

namespace warp::scalar::aes {

[[gnu::always_inline]] inline void add_round_key(Planes& q, const Planes& key) {
    #pragma GCC unroll 8
    for (int b = 0; b < 8; ++b) q[b] ^= key[b];
}

// Rotates every row right by 4 * n bits (mod 16), i.e. column c + n moves to column c.
template <int n>
[[gnu::always_inline]] inline Slice rotate_columns(Slice x) {
    if constexpr (n % 4 == 0)
        return x;
    else
        return rotate_within_rows<4 * (n % 4)>(x);
}

// The row `rows` below, `rows * skew` columns to the right: out[r][c] = x[r + rows][c + rows * skew].
template <int rows, int skew>
[[gnu::always_inline]] inline Slice row_below(Slice x) {
    return rotate_columns<rows * skew>(rotate_rows<rows>(x));
}

// ShiftRows applied twice: rows 1 and 3 move by two columns, row 2 by four (not at all).
[[gnu::always_inline]] inline void shift_rows_twice(Planes& q) {
    #pragma GCC unroll 8
    for (int b = 0; b < 8; ++b) q[b] = select(q[b], rotate_within_rows<8>(q[b]), splat(kRows13));
}

// Multiplication by x in GF(2^8) mod x^8 + x^4 + x^3 + x + 1, on planes: bit b takes bit
// b - 1, and bit 7 folds back into bits 0, 1, 3 and 4.
[[gnu::always_inline]] inline void times_x(const Planes& a, Planes& r) {
    r[0] = a[7];
    r[1] = a[0] ^ a[7];
    r[2] = a[1];
    r[3] = a[2] ^ a[7];
    r[4] = a[3] ^ a[7];
    r[5] = a[4];
    r[6] = a[5];
    r[7] = a[6];
}

// Each true column (a0, a1, a2, a3) becomes, in row r, 2 a_r + 3 a_{r+1} + a_{r+2} + a_{r+3}.
// With n = the next row (of the same true column) and t = a + n that is 2 t + n + (t two rows
// down).
template <int skew>
[[gnu::always_inline]] inline void mix_columns(Planes& q) {
    Planes n, t, doubled;
    #pragma GCC unroll 8
    for (int b = 0; b < 8; ++b) {
        n[b] = row_below<1, skew>(q[b]);
        t[b] = q[b] ^ n[b];
    }
    times_x(t, doubled);
    #pragma GCC unroll 8
    for (int b = 0; b < 8; ++b) q[b] = doubled[b] ^ n[b] ^ row_below<2, skew>(t[b]);
}

// InvMixColumns = MixColumns after the map a_r += 4 (a_r + a_{r+2}) (the matrices are
// circulant: [14 11 13 9] = [2 3 1 1] x [5 0 4 0]), which costs far less than the inverse
// matrix's own multiplications.
template <int skew>
[[gnu::always_inline]] inline void inverse_mix_columns(Planes& q) {
    Planes w, w2, w4;
    #pragma GCC unroll 8
    for (int b = 0; b < 8; ++b) w[b] = q[b] ^ row_below<2, skew>(q[b]);
    times_x(w, w2);
    times_x(w2, w4);
    #pragma GCC unroll 8
    for (int b = 0; b < 8; ++b) q[b] ^= w4[b];
    mix_columns<skew>(q);
}

}  // namespace warp::scalar::aes
