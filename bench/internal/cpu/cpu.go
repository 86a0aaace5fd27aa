// Package cpu reads the processor time the parts of a benchmark use: the
// server it measures, this program (the load generator), PostgreSQL's
// processes when the database runs on this machine, and the machine as a
// whole. A rate says how fast; these say what each request cost, and so
// what a faster machine, or fewer of the parts on it, would change.
package cpu

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Reading is processor time used up to one moment: by the server, by this
// program, by the processes named postgres, and by the whole machine, with
// the machine's elapsed processor time (its cores × wall time).
type Reading struct {
	Server, Generator, Postgres, Busy, All time.Duration
}

// Read reads the counters; server, when not nil, is the server's. A
// counter that cannot be read stays 0.
func Read(server func() (time.Duration, error)) Reading {
	var c Reading
	if server != nil {
		c.Server, _ = server()
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		c.Generator = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	c.Postgres = Named("postgres")
	c.Busy, c.All, _ = machine()
	return c
}

// Add is c and d together: the CPU of two spans.
func (c Reading) Add(d Reading) Reading {
	return Reading{c.Server + d.Server, c.Generator + d.Generator, c.Postgres + d.Postgres, c.Busy + d.Busy, c.All + d.All}
}

// Since is what was used between then and c.
func (c Reading) Since(then Reading) Reading {
	return Reading{c.Server - then.Server, c.Generator - then.Generator, c.Postgres - then.Postgres,
		c.Busy - then.Busy, c.All - then.All}
}

// BusyShare is the part of the machine's processor time that was busy.
func (c Reading) BusyShare() float64 {
	if c.All <= 0 {
		return 0
	}
	return float64(c.Busy) / float64(c.All)
}

// Process is the processor time process pid has used, user and system.
func Process(pid int) (time.Duration, error) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0, err
	}
	return ofStat(string(b))
}

// Named is the processor time used by the processes whose command name is
// name, with that of their children that have exited and been waited for:
// PostgreSQL's postmaster waits for its backends and autovacuum workers,
// so their time stays counted after they go. A process that exits before
// its parent has waited for it is missed until then.
func Named(name string) time.Duration {
	dirs, _ := filepath.Glob("/proc/[0-9]*/stat")
	var sum time.Duration
	for _, p := range dirs {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		s := string(b)
		open, close := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || close < open || s[open+1:close] != name {
			continue
		}
		if d, err := ofStat(s); err == nil {
			sum += d
		}
		if d, err := childrenOf(s); err == nil {
			sum += d
		}
	}
	return sum
}

// ofStat is utime + stime of a /proc/<pid>/stat line, in clock ticks of
// 10 ms (USER_HZ is 100 on Linux).
func ofStat(stat string) (time.Duration, error) { return ticks(stat, 11) }

// childrenOf is cutime + cstime of a /proc/<pid>/stat line: the time of
// the children it has waited for.
func childrenOf(stat string) (time.Duration, error) { return ticks(stat, 13) }

// ticks sums two fields of a /proc/<pid>/stat line, from the at-th after
// the command name.
func ticks(stat string, at int) (time.Duration, error) {
	// The command name, field 2, is in parentheses and may hold spaces
	// and parentheses: count the fields from the last ')'.
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, errors.New("unexpected /proc/<pid>/stat")
	}
	f := strings.Fields(stat[i+1:])
	if len(f) < at+2 {
		return 0, errors.New("unexpected /proc/<pid>/stat")
	}
	var sum int64
	for _, field := range f[at : at+2] { // from 11: utime and stime, fields 14 and 15; from 13: cutime and cstime
		n, err := strconv.ParseInt(field, 10, 64)
		if err != nil {
			return 0, err
		}
		sum += n
	}
	return time.Duration(sum) * 10 * time.Millisecond, nil
}

// machine is the busy and the total processor time of every core since
// boot, from the first line of /proc/stat (idle and iowait are not busy).
func machine() (busy, all time.Duration, err error) {
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
