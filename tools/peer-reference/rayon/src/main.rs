//! The suite's rayon yardsticks: the operations of fork-join, apply-stride and spawn written the
//! way a rayon user writes them, timed the way the harness times a case (tools/c-reference's
//! sampling.h): warm-up, a batch calibrated to last about 10 ms, 20 samples, the median in ns per
//! unit. One process prints two figures: that median, and the median over the same samples of the
//! process's CPU time (user and system, getrusage) per unit, the suite's `rusage.user-cpu-ns` +
//! `rusage.system-cpu-ns`; their ratio is how many CPUs the operation kept busy. `spin-round`
//! prints one. tools/peer-reference.sh runs several processes and takes the medians.
//!
//!   fib N                  fib(N) by rayon::join at every call with n >= 2; ns per join
//!   apply ROUNDS ITERS     (0..ITERS).into_par_iter().for_each(body), rayon's own splitting;
//!                          the body spins ROUNDS serialized rounds per index (the suite's body
//!                          cost; a fraction such as 2.56 is spun as the suite spins it, 2 or 3
//!                          rounds by turns); ns per iteration
//!   spin-round             ns per spin round, measured as the suite's BodyCost measures it
//!   outside                empty tasks submitted with rayon::spawn from a thread outside the pool,
//!                          the last one wakes it; ns per task
//!   chain                  one task at a time, each spawning the next; ns per link

use std::hint::black_box;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Instant;

const SAMPLES: usize = 20;
const TARGET_NS: f64 = 10_000_000.0;

/// Medians over samples of `run(batch)`'s wall and CPU ns per unit, where `run(n)` performs n
/// operations of `units` units each and the batch lasts about 10 ms.
fn median_ns_per_unit(units: f64, mut run: impl FnMut(u64)) -> (f64, f64) {
    let mut batch: u64 = 1;
    loop {
        let start = Instant::now();
        run(batch);
        let elapsed = start.elapsed().as_nanos() as f64;
        if elapsed * 10.0 >= TARGET_NS {
            batch = (batch as f64 * 1.2 * TARGET_NS / elapsed) as u64 + 1;
            break;
        }
        batch *= 2;
    }
    let (mut walls, mut cpus) = (Vec::with_capacity(SAMPLES), Vec::with_capacity(SAMPLES));
    for _ in 0..SAMPLES {
        let cpu_before = process_cpu_ns();
        let start = Instant::now();
        run(batch);
        walls.push(start.elapsed().as_nanos() as f64 / (batch as f64 * units));
        cpus.push((process_cpu_ns() - cpu_before) as f64 / (batch as f64 * units));
    }
    (median(walls), median(cpus))
}

fn median(mut figures: Vec<f64>) -> f64 {
    figures.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let half = figures.len() / 2;
    (figures[half - 1] + figures[half]) / 2.0
}

#[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
compile_error!("Rusage below is Linux's struct rusage on a 64-bit target");

/// Linux's `struct rusage` on a 64-bit target: two `timeval`s, then 14 longs this program does
/// not read. Declared here so the build needs no crate beyond rayon.
#[repr(C)]
struct Rusage {
    user: [i64; 2],
    system: [i64; 2],
    rest: [i64; 14],
}

extern "C" {
    fn getrusage(who: i32, usage: *mut Rusage) -> i32;
}

/// CPU time every thread of the process has used, user and system, in ns.
fn process_cpu_ns() -> i64 {
    const RUSAGE_SELF: i32 = 0;
    let mut usage = Rusage {
        user: [0; 2],
        system: [0; 2],
        rest: [0; 14],
    };
    // SAFETY: `usage` is a valid, writable `struct rusage` for the call's duration.
    let status = unsafe { getrusage(RUSAGE_SELF, &mut usage) };
    assert_eq!(status, 0, "getrusage failed");
    (usage.user[0] + usage.system[0]) * 1_000_000_000 + (usage.user[1] + usage.system[1]) * 1_000
}

/// The suite's body cost (Benchmarks/CBodyCost's rb_spin): serialized rounds, so consecutive
/// bodies cannot overlap in the out-of-order core.
#[inline(always)]
fn spin(rounds: u64) {
    for _ in 0..black_box(rounds) {
        #[cfg(target_arch = "x86_64")]
        unsafe {
            std::arch::x86_64::_mm_lfence()
        };
        #[cfg(target_arch = "aarch64")]
        unsafe {
            std::arch::asm!("isb")
        };
    }
}

/// Rounds per index to a 2^-32 of a round, as the suite's `rb_spin_rounds`.
#[derive(Clone, Copy)]
struct SpinRounds {
    whole: u64,
    fraction: u32,
}

impl SpinRounds {
    fn new(rounds: f64) -> SpinRounds {
        let whole = rounds.floor();
        let fraction = ((rounds - whole) * 4_294_967_296.0).round();
        if fraction >= 4_294_967_296.0 {
            SpinRounds {
                whole: whole as u64 + 1,
                fraction: 0,
            }
        } else {
            SpinRounds {
                whole: whole as u64,
                fraction: fraction as u32,
            }
        }
    }

    /// The fraction carried into `index` (the suite's `rb_spin_rounds_phase`).
    fn phase(self, index: u64) -> u32 {
        index.wrapping_mul(self.fraction as u64) as u32
    }

    /// The rounds of the index at `phase`, moving it to the next index's (the suite's
    /// `rb_spin_rounds_step`): the same rounds as the suite's loop, index by index, and the same
    /// add and shift before each body, which the spin's fence waits for.
    fn step(self, phase: &mut u32) -> u64 {
        let next = *phase as u64 + self.fraction as u64;
        *phase = next as u32;
        self.whole + (next >> 32)
    }
}

/// The cost of a spin round: the fastest of 20 probes of 20,000 rounds, as the suite's BodyCost
/// measures it once per run.
fn ns_per_spin_round() -> f64 {
    (0..20)
        .map(|_| {
            let start = Instant::now();
            spin(20_000);
            start.elapsed().as_nanos() as f64 / 20_000.0
        })
        .fold(f64::INFINITY, f64::min)
}

fn fib(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = rayon::join(|| fib(n - 1), || fib(n - 2));
    a + b
}

/// Calls with n >= 2 in fib(n), each of which joins: fib(n + 1) - 1.
fn joins(n: u64) -> f64 {
    let (mut a, mut b) = (0u64, 1u64);
    for _ in 0..n + 1 {
        let next = a + b;
        a = b;
        b = next;
    }
    (a - 1) as f64
}

/// The tasks still due, and the outside thread's wake-up once they are all done.
static DUE: AtomicI64 = AtomicI64::new(0);
static DONE: Mutex<bool> = Mutex::new(false);
static WAKE: Condvar = Condvar::new();

/// Counts one task done; the last one wakes the outside thread. True for the last.
fn arrive() -> bool {
    let last = DUE.fetch_sub(1, Ordering::AcqRel) == 1;
    if last {
        *DONE.lock().unwrap() = true;
        WAKE.notify_one();
    }
    last
}

fn link() {
    if !arrive() {
        rayon::spawn(link);
    }
}

fn wait_for_tasks() {
    let mut done = DONE.lock().unwrap();
    while !*done {
        done = WAKE.wait(done).unwrap();
    }
    *done = false;
}

fn spawned(n: u64, chain: bool) {
    DUE.store(n as i64, Ordering::Release);
    if chain {
        rayon::spawn(link);
    } else {
        for _ in 0..n {
            rayon::spawn(|| {
                arrive();
            });
        }
    }
    wait_for_tasks();
}

fn usage() -> ! {
    eprintln!(
        "usage: rayon-reference fib N | apply ROUNDS ITERATIONS | spin-round | outside | chain"
    );
    std::process::exit(64);
}

fn number(text: Option<&String>) -> u64 {
    text.and_then(|t| t.parse().ok()).unwrap_or_else(|| usage())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (wall, cpu) = match args.first().map(String::as_str) {
        Some("fib") => {
            let n = number(args.get(1));
            if !(2..=40).contains(&n) {
                usage()
            }
            let expected = fib(n);
            median_ns_per_unit(joins(n), |batch| {
                for _ in 0..batch {
                    assert_eq!(black_box(fib(black_box(n))), expected);
                }
            })
        }
        Some("apply") => {
            let rounds = SpinRounds::new(
                args.get(1)
                    .and_then(|t| t.parse::<f64>().ok())
                    .filter(|r| *r >= 0.0 && r.is_finite())
                    .unwrap_or_else(|| usage()),
            );
            let iterations = number(args.get(2));
            use rayon::prelude::*;
            median_ns_per_unit(iterations as f64, |batch| {
                for _ in 0..batch {
                    if rounds.fraction == 0 {
                        // Whole rounds (the empty body): the plain loop, as the suite's piece
                        // keeps it.
                        (0..iterations).into_par_iter().for_each(|i| {
                            black_box(i);
                            spin(rounds.whole);
                        });
                        continue;
                    }
                    // rayon hands each job a contiguous range in order, so the phase steps
                    // along it and is recomputed only where a job starts.
                    (0..iterations).into_par_iter().for_each_init(
                        || (u64::MAX, 0u32),
                        |(next_index, phase), i| {
                            if *next_index != i {
                                *phase = rounds.phase(i);
                            }
                            *next_index = i + 1;
                            spin(rounds.step(phase));
                        },
                    );
                }
            })
        }
        Some("spin-round") => {
            println!("{:.3}", ns_per_spin_round());
            return;
        }
        Some("outside") => median_ns_per_unit(1.0, |n| spawned(n, false)),
        Some("chain") => median_ns_per_unit(1.0, |n| spawned(n, true)),
        _ => usage(),
    };
    println!("{wall:.3} {cpu:.3}");
}
