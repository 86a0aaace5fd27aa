package main

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// cpu is processor time used, as read at one moment: by the server, by
// this program (the load generator) and by the whole machine, with the
// machine's elapsed processor time (its cores × wall time).
type cpu struct {
	Server, Generator, Busy, All time.Duration
}

// readCPU reads the counters; a counter that cannot be read stays 0.
func readCPU(srv interface{ CPU() (time.Duration, error) }) cpu {
	var c cpu
	c.Server, _ = srv.CPU()
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		c.Generator = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	c.Busy, c.All, _ = machineCPU()
	return c
}

// add is c and d together: the CPU of two spans.
func (c cpu) add(d cpu) cpu {
	return cpu{c.Server + d.Server, c.Generator + d.Generator, c.Busy + d.Busy, c.All + d.All}
}

// Since is what was used between then and c.
func (c cpu) Since(then cpu) cpu {
	return cpu{c.Server - then.Server, c.Generator - then.Generator, c.Busy - then.Busy, c.All - then.All}
}

// BusyShare is the part of the machine's processor time that was busy.
func (c cpu) BusyShare() float64 {
	if c.All <= 0 {
		return 0
	}
	return float64(c.Busy) / float64(c.All)
}

// machineCPU is the busy and the total processor time of every core since
// boot, from the first line of /proc/stat (idle and iowait are not busy).
func machineCPU() (busy, all time.Duration, err error) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0, err
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 6 || f[0] != "cpu" {
		return 0, 0, errors.New("unexpected /proc/stat")
	}
	var ticks, idle int64
	for i, s := range f[1:] {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, 0, err
		}
		if i >= 8 { // guest and guest_nice are counted in user already
			break
		}
		ticks += n
		if i == 3 || i == 4 {
			idle += n
		}
	}
	return time.Duration(ticks-idle) * 10 * time.Millisecond, time.Duration(ticks) * 10 * time.Millisecond, nil
}
