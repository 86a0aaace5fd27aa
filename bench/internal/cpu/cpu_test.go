package cpu

import (
	"os"
	"testing"
	"time"
)

func TestOfStat(t *testing.T) {
	t.Parallel()
	// A real line (cat /proc/self/stat), its command name made awkward.
	const line = "8680 (dro ver) (x)) S 8600 8680 8600 0 -1 4194560 3110 0 0 0 1234 567 0 0 20 0 9 0 1714 1297068032 28190 " +
		"18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n"
	if got, err := ofStat(line); err != nil || got != (1234+567)*10*time.Millisecond {
		t.Errorf("ofStat = %v, %v; want 18.01s", got, err)
	}
	for _, bad := range []string{"", "8680 (drover) S 1 2 3", "1 (x) S 0 0 0 0 0 0 0 0 0 0 x 1 0 0"} {
		if _, err := ofStat(bad); err == nil {
			t.Errorf("ofStat(%q): no error", bad)
		}
	}
	if got, err := childrenOf(line); err != nil || got != 0 {
		t.Errorf("childrenOf = %v, %v; want 0", got, err)
	}
	const parent = "1 (postgres) S 0 1 1 0 -1 4194560 3110 0 0 0 10 20 300 400 20 0 1 0 1714 1297068032 28190\n"
	if got, err := childrenOf(parent); err != nil || got != 7*time.Second {
		t.Errorf("childrenOf(parent) = %v, %v; want 7s", got, err)
	}
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc:", err)
	}
	if _, err := Process(os.Getpid()); err != nil {
		t.Errorf("Process(self): %v", err)
	}
}

func TestMachine(t *testing.T) {
	t.Parallel()
	busy, all, err := machine()
	if err != nil {
		t.Skip("no /proc/stat:", err)
	}
	if all <= 0 || busy < 0 || busy > all {
		t.Errorf("busy %v of %v", busy, all)
	}
	if s := (Reading{Busy: busy, All: all}).Since(Reading{}).BusyShare(); s < 0 || s > 1 {
		t.Errorf("BusyShare %v", s)
	}
}

// TestNamed burns processor time in this test's own process and finds it
// under the process's command name.
func TestNamed(t *testing.T) {
	b, err := os.ReadFile("/proc/self/comm")
	if err != nil {
		t.Skip("no /proc:", err)
	}
	name := string(b[:len(b)-1])
	before := Named(name)
	for end := time.Now().Add(50 * time.Millisecond); time.Now().Before(end); {
	}
	if got := Named(name) - before; got <= 0 {
		t.Errorf("Named(%q) grew by %v over 50 ms of busy work", name, got)
	}
	if got := Named("no such process name"); got != 0 {
		t.Errorf("Named of no process = %v", got)
	}
}
