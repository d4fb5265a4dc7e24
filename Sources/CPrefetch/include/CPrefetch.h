#ifndef OKIT_CPREFETCH_H
#define OKIT_CPREFETCH_H

/* The processor's prefetch instruction for the engine (OKitEngine's CacheLines), through the compiler's own
 * builtin: no LLVM intrinsic named by hand, nothing to link, the same on every compiler that builds okit
 * (`prefetcht0` on x86-64, `prfm pldl1keep` on ARM64). docs/unsafe.md lists it. */

/* Starts loading the cache line that holds `address` for a read, to keep in every cache level, and goes on
 * without waiting. A prefetch never faults and changes nothing a program can see, whatever the address: a wrong
 * one only wastes the instruction. */
static inline __attribute__((always_inline)) void okit_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

#endif
