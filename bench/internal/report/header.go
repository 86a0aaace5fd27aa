package report

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"
)

// Header is what heads each program's table: how the run was started (to
// run it again), on which database, on what machine when, and how busy
// the machine was.
type Header struct {
	Command     string
	Dialect     string // "SQLite" or "PostgreSQL", once the database is chosen
	Started     time.Time
	LoadAverage string // other work on the machine skews every figure
}

// Begin is the header of a run, starting now, of program (its folder
// under bench/) with args.
func Begin(program string, args []string) Header {
	return Header{Command: CommandLine(program, args), Started: time.Now(), LoadAverage: LoadAverage()}
}

// Machine is the cores the figures were measured on and the day, as
// "2 cores, 2026-11-22".
func (h Header) Machine() string {
	return fmt.Sprintf("%d cores, %s", runtime.NumCPU(), h.Started.UTC().Format(time.DateOnly))
}

// CommandLine is how a run of program (its folder under bench/) was
// started, quoted so that it can be pasted into a shell again.
func CommandLine(program string, args []string) string {
	parts := []string{"go run ./bench/" + program}
	for _, a := range args {
		if a == "" || strings.ContainsAny(a, " ?&$'\"") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		parts = append(parts, a)
	}
	return strings.Join(parts, " ")
}

// LoadAverage is /proc/loadavg's three averages, "" where there is none.
func LoadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return ""
}
