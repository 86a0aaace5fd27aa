package main

import "testing"

func TestMachineCPU(t *testing.T) {
	t.Parallel()
	busy, all, err := machineCPU()
	if err != nil {
		t.Skip("no /proc/stat:", err)
	}
	if all <= 0 || busy < 0 || busy > all {
		t.Errorf("busy %v of %v", busy, all)
	}
	if s := (cpu{Busy: busy, All: all}).Since(cpu{}).BusyShare(); s < 0 || s > 1 {
		t.Errorf("BusyShare %v", s)
	}
}
