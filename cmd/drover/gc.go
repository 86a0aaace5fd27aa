package main

import (
	"log/slog"
	"runtime/debug"
	"strconv"
)

// The garbage collector's settings where the operator has not set Go's
// own GOGC or GOMEMLIMIT: each default applies when its variable is unset,
// and a variable that is set wins.
//
// With Go's default (GOGC=100) the heap of a busy server stays small, a
// few tens of MB, and the collector runs so often that it and the
// allocations it slows took a fifth of the CPU under the registration
// benchmark. Letting the heap grow to five times what is live before
// collecting gave, in alternating runs on two cores, 12% more sync
// registrations a second (8,414 and 8,329 against 7,523 and 7,455) and
// 10–13% more movements POSTs (8,615 and 9,100 against 7,602 and 8,254),
// for a peak RSS of 152–158 MB against 126 under the movements benchmark
// (docs/performance-history.md). The memory limit keeps that from costing memory
// the machine does not have: as the Go heap and runtime near it, the
// collector runs as often as it must to stay below, whatever GOGC says.
// SQLite's page caches are allocated outside Go's heap and not counted.
const (
	defaultGCPercent   = 400
	defaultMemoryLimit = 128 << 20
)

// tuneGC applies the defaults above where getenv shows no setting of the
// operator's, and logs what the collector runs with.
func tuneGC(getenv func(string) string, log *slog.Logger) {
	percent, limit := getenv("GOGC"), getenv("GOMEMLIMIT")
	if percent == "" {
		debug.SetGCPercent(defaultGCPercent)
		percent = strconv.Itoa(defaultGCPercent)
	}
	if limit == "" {
		debug.SetMemoryLimit(defaultMemoryLimit)
		limit = strconv.Itoa(defaultMemoryLimit>>20) + "MiB"
	}
	log.Info("garbage collector", slog.String("GOGC", percent), slog.String("GOMEMLIMIT", limit))
}
