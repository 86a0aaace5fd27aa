package benchserver

import (
	"os"
	"testing"
	"time"
)

func TestCPUOf(t *testing.T) {
	t.Parallel()
	// A real line (cat /proc/self/stat), its command name made awkward.
	const line = "8680 (dro ver) (x)) S 8600 8680 8600 0 -1 4194560 3110 0 0 0 1234 567 0 0 20 0 9 0 1714 1297068032 28190 " +
		"18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n"
	if got, err := cpuOf(line); err != nil || got != (1234+567)*10*time.Millisecond {
		t.Errorf("cpuOf = %v, %v; want 18.01s", got, err)
	}
	for _, bad := range []string{"", "8680 (drover) S 1 2 3", "1 (x) S 0 0 0 0 0 0 0 0 0 0 x 1 0 0"} {
		if _, err := cpuOf(bad); err == nil {
			t.Errorf("cpuOf(%q): no error", bad)
		}
	}
	self, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		t.Skip("no /proc:", err)
	}
	if _, err := cpuOf(string(self)); err != nil {
		t.Errorf("cpuOf(/proc/self/stat): %v", err)
	}
}
