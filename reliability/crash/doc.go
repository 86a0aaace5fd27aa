// Package crash holds the crash test of Drover (issue 5): the real binary
// is killed with SIGKILL at random moments under concurrent submissions,
// at least 20 times on each store, and restarted; afterwards every
// acknowledged request must exist exactly once, every queued one must have
// reached a final status, and no request that was never acknowledged may
// have left part of itself behind. The test is crash_test.go; this file
// only names the package, which has no code outside its tests.
package crash
