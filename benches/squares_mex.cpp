// The plain baseline for `nimcount grundy --game squares --first N`: a mex loop over every
// move, with a 512-bit mask of the values reachable from each heap.
//
// Build and run (prints G(0) … G(N-1) like nimcount, so the outputs can be compared):
//   g++ -O3 -march=native -o squares_mex benches/squares_mex.cpp
//   ./squares_mex 10000000 > squares.txt
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s N\n", argv[0]);
        return 2;
    }
    const uint64_t n_values = std::strtoull(argv[1], nullptr, 10);
    std::vector<uint16_t> g(n_values);
    for (uint64_t n = 0; n < n_values; ++n) {
        uint64_t mask[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        for (uint64_t k = 1; k * k <= n; ++k) {
            const unsigned v = g[n - k * k];
            mask[v >> 6] |= uint64_t{1} << (v & 63);
        }
        unsigned mex = 512;
        for (unsigned w = 0; w < 8; ++w) {
            if (~mask[w] != 0) {
                mex = 64 * w + __builtin_ctzll(~mask[w]);
                break;
            }
        }
        if (mex >= 512) {
            std::fprintf(stderr, "a value reached 512: the mask is too small\n");
            return 1;
        }
        g[n] = static_cast<uint16_t>(mex);
    }
    // The same output as nimcount: values separated by spaces, one line.
    std::vector<char> out;
    out.reserve(n_values * 4 + 1);
    char digits[8];
    for (uint64_t n = 0; n < n_values; ++n) {
        if (n > 0) out.push_back(' ');
        int len = 0;
        unsigned v = g[n];
        do {
            digits[len++] = static_cast<char>('0' + v % 10);
            v /= 10;
        } while (v != 0);
        while (len > 0) out.push_back(digits[--len]);
    }
    out.push_back('\n');
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}
