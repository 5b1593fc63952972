// SPDX-License-Identifier: GPL-2.0
//! Workload for flamegraph_names.sh: one hot function that is not inlined,
//! whose loop calls nothing (no overflow can happen, so no panic path is
//! taken and no core function runs inside it even at opt-level 0), so the
//! samples land in spin_rust() itself.

use std::hint::black_box;

#[inline(never)]
fn spin_rust(n: u64) -> u64 {
    let mut x: u64 = 1;
    let mut i: u64 = 0;

    while i < n {
        x = (x ^ i) >> 1;
        x += i & 0xff;
        i += 1;
    }
    x
}

fn main() {
    let n = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(200_000_000);

    println!("{}", spin_rust(black_box(n)));
}
