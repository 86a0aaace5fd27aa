// Package groupcommit runs many callers' small write transactions as one,
// on database/sql. A small write transaction costs little but its commit:
// an fsync of the WAL on SQLite, a WAL flush and a round trip on
// PostgreSQL. Group.Run hands its fn to a committer, which takes every
// call waiting at that moment, runs their fns one after another in one
// transaction, and commits once for all of them.
//
// The package owns that machinery and nothing of what the fns write: the
// queues and committers (group.go, gather.go), a group's passes, first
// without savepoints and then with one around each fn (run.go), the
// connection deadline a group runs under (deadline.go), writes deferred
// to one round trip (deferred.go), the prepared statements a Pool keeps
// (pool.go), and the group's counters (stats.go). What a database needs
// of it (a socket deadline, a batch of statements) comes in as hooks of
// Config.
//
// A fn given to Run is held to this contract:
//
//   - It runs on a committer's goroutine, not its caller's, after fns of
//     other callers in the same transaction. A test must not call
//     t.Fatal in it.
//   - It may run more than once: when a fn of a pass without savepoints
//     fails, the whole pass is rolled back and the group runs again with
//     a savepoint around each fn. State a fn keeps outside the
//     transaction must be reset at its start.
//   - It is given its caller's context's values, but neither its
//     cancellation nor its deadline: the group runs under the latest
//     deadline of its callers, on the connection (deadline.go).
//   - It must do nothing but run statements on the transaction it is
//     given: it must not call Run (it would wait for its own committer),
//     nor write through another connection, nor block on anything but
//     the database.
//   - Run returns fn's error as it is, and then nothing fn wrote was
//     committed; nil means fn's writes are committed. A panic in fn is
//     returned to its caller as an error; the committer goes on.
//   - Once fn has started, Run waits for the group's outcome even if the
//     caller's context ends, so that an error always means nothing of
//     fn's was committed. A call still queued when its context ends is
//     given up.
package groupcommit
