// The suite's Go yardsticks: the operations of the group and spawn workloads written the way a
// Go user writes them, timed the way the harness times a case (tools/c-reference's sampling.h):
// a batch calibrated to last about 10 ms, 20 samples, the median in ns per unit. One process
// prints two figures: that median, and the median over the same samples of the process's CPU time
// (user and system, getrusage) per unit, the suite's `rusage.user-cpu-ns` + `rusage.system-cpu-ns`.
// Their ratio is how many CPUs the operation kept busy. tools/peer-reference.sh runs several
// processes and takes the medians.
//
//	fan-out   rounds of 2 × GOMAXPROCS goroutines joined by a sync.WaitGroup, the group workload's
//	          fan-out (one group reused, Add per round, Wait by the submitter; each goroutine
//	          counts itself into a tally, as the workload's tasks do); ns per goroutine
//	outside   empty goroutines started by one goroutine, the last of them wakes it; ns per goroutine
//	chain     one goroutine at a time, each starting the next; ns per link
//
// GOMAXPROCS is Go's default, one per usable CPU: the suite's pools have as many workers.
package main

import (
	"fmt"
	"os"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

const (
	samples  = 20
	targetNs = 10_000_000.0
)

// medianNsPerUnit gives the medians over samples of run(batch)'s wall and CPU ns per unit, where
// run(n) performs n operations of `units` units each and the batch lasts about targetNs.
func medianNsPerUnit(units float64, run func(n int)) (wall, cpu float64) {
	batch := 1
	for {
		start := time.Now()
		run(batch)
		elapsed := float64(time.Since(start).Nanoseconds())
		if elapsed*10 >= targetNs {
			batch = int(float64(batch)*1.2*targetNs/elapsed) + 1
			break
		}
		batch *= 2
	}
	walls, cpus := make([]float64, samples), make([]float64, samples)
	for i := range walls {
		cpuBefore := processCPUNanoseconds()
		start := time.Now()
		run(batch)
		walls[i] = float64(time.Since(start).Nanoseconds()) / (float64(batch) * units)
		cpus[i] = float64(processCPUNanoseconds()-cpuBefore) / (float64(batch) * units)
	}
	return median(walls), median(cpus)
}

func median(figures []float64) float64 {
	sort.Float64s(figures)
	return (figures[len(figures)/2-1] + figures[len(figures)/2]) / 2
}

// processCPUNanoseconds is the CPU time every thread of the process has used, user and system.
func processCPUNanoseconds() int64 {
	var usage syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &usage); err != nil {
		panic(fmt.Sprintf("getrusage: %v", err))
	}
	return usage.Utime.Nano() + usage.Stime.Nano()
}

// fanOut runs `rounds` rounds of `tasks` goroutines on one WaitGroup, waiting for each. Each
// goroutine counts itself into a tally, the one atomic read-modify-write the group workload's
// tasks do, and each Wait must find its round counted, as the workload checks.
func fanOut(rounds, tasks int) {
	var group sync.WaitGroup
	var ran atomic.Int64
	for r := 1; r <= rounds; r++ {
		group.Add(tasks)
		for i := 0; i < tasks; i++ {
			go func() {
				ran.Add(1)
				group.Done()
			}()
		}
		group.Wait()
		if ran.Load() != int64(r*tasks) {
			panic(fmt.Sprintf("Wait returned with %d of %d goroutines counted", ran.Load(), r*tasks))
		}
	}
}

// countdown is what the spawned goroutines count down; the last one closes done.
type countdown struct {
	due  atomic.Int64
	done chan struct{}
}

func (c *countdown) arrive() bool {
	last := c.due.Add(-1) == 0
	if last {
		close(c.done)
	}
	return last
}

func (c *countdown) link() {
	if !c.arrive() {
		go c.link()
	}
}

// spawned starts n goroutines (all at once, or each starting the next) and waits for the last.
func spawned(n int, chain bool) {
	c := &countdown{done: make(chan struct{})}
	c.due.Store(int64(n))
	if chain {
		go c.link()
	} else {
		for i := 0; i < n; i++ {
			go func() { c.arrive() }()
		}
	}
	<-c.done
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: go-reference fan-out | outside | chain")
	os.Exit(64)
}

func main() {
	if len(os.Args) != 2 {
		usage()
	}
	var wall, cpu float64
	switch os.Args[1] {
	case "fan-out":
		tasks := 2 * runtime.GOMAXPROCS(0)
		wall, cpu = medianNsPerUnit(float64(tasks), func(n int) { fanOut(n, tasks) })
	case "outside":
		wall, cpu = medianNsPerUnit(1, func(n int) { spawned(n, false) })
	case "chain":
		wall, cpu = medianNsPerUnit(1, func(n int) { spawned(n, true) })
	default:
		usage()
	}
	fmt.Printf("%.3f %.3f\n", wall, cpu)
}
