package benchserver

import "testing"

func TestStatusKB(t *testing.T) {
	status := "Name:\tdrover\nVmHWM:\t  402868 kB\nVmRSS:\t  300000 kB\nRssAnon:\t   46692 kB\nRssFile:\t  257124 kB\n"
	for field, want := range map[string]int64{"VmHWM:": 402868 << 10, "RssAnon:": 46692 << 10} {
		if got, err := statusKB(status, field); err != nil || got != want {
			t.Errorf("%s = %d, %v; want %d", field, got, err, want)
		}
	}
	if _, err := statusKB(status, "RssShmem:"); err == nil {
		t.Error("a missing field read without an error")
	}
	if got := (Memory{Own: 61e6, Resident: 505e6}).String(); got != "61 / 505 MB" {
		t.Errorf("String = %q", got)
	}
}
