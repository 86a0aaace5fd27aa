package tracing

// SplitReads makes s read a frontier in runs of two holdings,
// as only a large one is otherwise, so that small registries test it.
func SplitReads(s *Service) *Service {
	s.minRun = 2
	return s
}
