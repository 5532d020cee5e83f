// The textbook baseline for `subset_convolve` modulo 998 244 353: ranked zeta transforms, one
// array of 32-bit residues per rank, `%` after every sum and product, one thread.
//
// Build and run (2^N sets; the inputs are those of `examples/subset_convolve.rs`, and both print
// the same checksum of the result):
//   g++ -O3 -march=native -o subset_textbook benches/subset_textbook.cpp
//   ./subset_textbook 20
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
    const uint64_t p = 998244353;
    const int n = argc > 1 ? std::atoi(argv[1]) : 20;
    if (n < 0 || n > 26) {
        std::fprintf(stderr, "usage: %s [N], 0 <= N <= 26\n", argv[0]);
        return 2;
    }
    const size_t len = size_t{1} << n;
    uint64_t seed = 0x5eed;
    auto next = [&]() {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        return uint32_t((seed >> 33) % p);
    };
    std::vector<uint32_t> a(len), b(len);
    for (auto& x : a) x = next();
    for (auto& x : b) x = next();

    const auto start = std::chrono::steady_clock::now();
    using Ranks = std::vector<std::vector<uint32_t>>;
    Ranks fa(n + 1, std::vector<uint32_t>(len)), fb(n + 1, std::vector<uint32_t>(len));
    Ranks h(n + 1, std::vector<uint32_t>(len));
    for (size_t s = 0; s < len; ++s) {
        fa[__builtin_popcountll(s)][s] = a[s];
        fb[__builtin_popcountll(s)][s] = b[s];
    }
    for (int r = 0; r <= n; ++r) {
        for (int i = 0; i < n; ++i) {
            for (size_t s = 0; s < len; ++s) {
                if (s >> i & 1) {
                    fa[r][s] = (uint64_t{fa[r][s]} + fa[r][s ^ (size_t{1} << i)]) % p;
                    fb[r][s] = (uint64_t{fb[r][s]} + fb[r][s ^ (size_t{1} << i)]) % p;
                }
            }
        }
    }
    for (int r = 0; r <= n; ++r) {
        for (int i = 0; i <= r; ++i) {
            for (size_t s = 0; s < len; ++s) {
                h[r][s] = (h[r][s] + uint64_t{fa[i][s]} * fb[r - i][s]) % p;
            }
        }
    }
    for (int r = 0; r <= n; ++r) {
        for (int i = 0; i < n; ++i) {
            for (size_t s = 0; s < len; ++s) {
                if (s >> i & 1) {
                    h[r][s] = (uint64_t{h[r][s]} + p - h[r][s ^ (size_t{1} << i)]) % p;
                }
            }
        }
    }
    std::vector<uint32_t> c(len);
    for (size_t s = 0; s < len; ++s) c[s] = h[__builtin_popcountll(s)][s];
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    uint64_t checksum = 0;
    for (const uint32_t x : c) checksum = (checksum * 31 + x) % p;
    std::printf("textbook C++ 2^%d: %.4f s (checksum %llu)\n", n, seconds, (unsigned long long)checksum);
}
